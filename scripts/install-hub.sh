#!/usr/bin/env bash
# Install the Tabletop Referee café hub and the café's Mosquitto broker on a Pi or any Debian machine.
#
#   sudo scripts/install-hub.sh --cafe ID [--tables "t1 t2"] [options]  install or update (idempotent)
#   sudo scripts/install-hub.sh --uninstall            remove the hub (keeps config, store and broker users)
#   sudo scripts/install-hub.sh --uninstall --purge    also the config, the store and the café's broker config
#
# Options:
#   --cafe ID                 the café's id (first install; kept in /etc/tabletop-referee/hub.toml after)
#   --tables "T1 T2 ..."      tables set up by files: each gets a broker user and a password file to copy by hand
#                             (added to the ones from earlier runs); paired tables need none (docs/cafe.md)
#   --listen HOST:PORT        the web page, HTTPS (default 0.0.0.0:8080; first install)
#   --broker-port PORT        the café broker's plain port, on 127.0.0.1 only, for the hub (default 1883)
#   --tls-port PORT           the broker's TLS port for the tables on the café's network (default 8883)
#   --broker-name NAME        a host name or address the tables reach the broker by, for its certificate
#                             (repeat it; default: this machine's name, NAME.local, its addresses, localhost)
#   --no-broker               the broker runs elsewhere: neither install nor configure Mosquitto here
#   --bridge-to HOST:PORT     bridge this café's topics to a chain's central broker (--no-bridge removes it)
#   --bridge-user USER        ... as this user at the central broker, with
#   --bridge-password-file F  ... the password in this file
#   --https-name NAME         a name (or IP address) for the hub's self-signed HTTPS certificate, which the hub
#                             makes on its first start (repeat it; default: this machine's names; first install)
#   --behind-proxy ADDRESS    plain HTTP on 127.0.0.1:8080 for a reverse proxy at ADDRESS that serves HTTPS
#                             (first install; without it the hub never serves plain HTTP)
#   --no-start                enable the services for the next boot, but do not (re)start them now
#   --destdir DIR             install into DIR as a throwaway root (same as DESTDIR=DIR)
#
# With DESTDIR set, every file goes below DESTDIR and nothing on the running system is changed:
# commands that would (apt-get, useradd, chown, python3 -m venv, pip, systemctl) are printed as
# "skipped (DESTDIR): ..." instead of run. CI uses this mode. The broker's users and ACL are written by
# `python -m cafe broker-config` (scripts/cafe-broker.sh), the bridge by `referee-hub bridge-config`.
# Layout: /opt/tabletop-referee-hub (venv, docs), /etc/tabletop-referee/hub.toml (+ hub.password),
# /var/lib/referee-hub (the store), /etc/mosquitto/tabletop-referee (tls/ the café's CA and the broker's
# certificate, dynsec/ the users the hub adds, passwd + acl + passwords/USER for --tables),
# /etc/mosquitto/conf.d/tabletop-referee*.conf, /etc/systemd/system/referee-hub.service. See docs/cafe.md.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DESTDIR=${DESTDIR:-}
PROG=install-hub.sh
# shellcheck source-path=SCRIPTDIR source=install-lib.sh
. "$SRC/scripts/install-lib.sh"
HUB_USER=referee-hub
APP=/opt/tabletop-referee-hub
CONF=/etc/tabletop-referee
DATA=/var/lib/referee-hub
UNITS=/etc/systemd/system
BROKER_DIR=/etc/mosquitto/tabletop-referee
BROKER_SNIPPET=/etc/mosquitto/conf.d/tabletop-referee.conf
BRIDGE_SNIPPET=/etc/mosquitto/conf.d/tabletop-referee-bridge.conf

USAGE_END=34
cafe=
tables=()
listen=
broker_port=1883
tls_port=8883
broker_names=()
broker=yes
bridge=keep
bridge_user=
bridge_password_file=
https_names=()
proxy=

while [ $# -gt 0 ]; do
    case $1 in
        --cafe) cafe=${2:?--cafe needs an id}; shift ;;
        --tables) read -r -a more <<<"${2:?--tables needs table ids}"; tables+=("${more[@]}"); shift ;;
        --listen) listen=${2:?--listen needs HOST:PORT}; shift ;;
        --broker-port) broker_port=${2:?--broker-port needs a port}; shift ;;
        --tls-port) tls_port=${2:?--tls-port needs a port}; shift ;;
        --broker-name) broker_names+=("${2:?--broker-name needs a host name or address}"); shift ;;
        --no-broker) broker=no ;;
        --bridge-to) bridge=${2:?--bridge-to needs HOST:PORT}; shift ;;
        --no-bridge) bridge=off ;;
        --bridge-user) bridge_user=${2:?--bridge-user needs a user}; shift ;;
        --bridge-password-file) bridge_password_file=${2:?--bridge-password-file needs a file}; shift ;;
        --self-signed) ;; # the default since the hub makes its own certificate (kept for old command lines)
        --https-name) https_names+=("${2:?--https-name needs a host name or address}"); shift ;;
        --behind-proxy) proxy=${2:?--behind-proxy needs the address of the proxy}; shift ;;
        *) common_option "$@" || { echo "$PROG: unknown option $1 (see --help)" >&2; exit 2; }
           shift $((SHIFTS - 1)) ;;
    esac
    shift
done
check_invocation "$mode" "$purge"
if [ -z "$listen" ]; then # behind a proxy only the proxy reaches the hub
    listen=0.0.0.0:8080
    [ -n "$proxy" ] && listen=127.0.0.1:8080
fi

python_for_tools() { # the hub's venv once it exists; the source tree's otherwise (a throwaway root)
    if [ -x "$DESTDIR$APP/venv/bin/python" ]; then
        echo "$DESTDIR$APP/venv/bin/python"
    elif [ -x "$SRC/.venv/bin/python" ]; then
        echo "$SRC/.venv/bin/python"
    else
        echo python3
    fi
}

tool() { PYTHONPATH="$SRC${PYTHONPATH:+:$PYTHONPATH}" "$(python_for_tools)" "$@"; }

install_packages() {
    local package packages=(python3-venv python3-pip) missing=()
    [ "$broker" = yes ] && packages+=(mosquitto)
    for package in "${packages[@]}"; do
        installed "$package" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    sys apt-get update -qq
    sys env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

create_user() {
    if ! live id -u "$HUB_USER"; then
        sys useradd --system --user-group --home-dir "$DATA" --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop Referee café hub" "$HUB_USER"
    fi
}

install_program() {
    sys python3 -m venv "$APP/venv"
    sys "$APP/venv/bin/python" -m pip install --quiet --upgrade pip
    sys "$APP/venv/bin/python" -m pip install --quiet --upgrade "${SRC}[hub]"
    put 0644 "$SRC/docs/cafe.md" "$APP/docs/cafe.md"
}

configured_cafe() { # the café id in an existing hub.toml
    [ -f "$DESTDIR$CONF/hub.toml" ] || return 0
    sed -n 's/^cafe *= *"\(.*\)"/\1/p' "$DESTDIR$CONF/hub.toml" | head -n 1
}

install_config() {
    mkdir -p "$DESTDIR$CONF" "$DESTDIR$DATA"
    chmod 0755 "$DESTDIR$CONF"
    chmod 0750 "$DESTDIR$DATA"
    if [ ! -e "$DESTDIR$CONF/hub.toml" ]; then
        local config
        config=$(mktemp)
        cat >"$config" <<TOML
# The café hub (referee-hub); see $APP/docs/cafe.md. Check it with: referee-hub --check-config FILE
[hub]
broker = "127.0.0.1:$broker_port"
cafe = "$cafe"
data_dir = "$DATA"
listen = "$listen"
$(web_settings)
username = "hub"
password_file = "$CONF/hub.password"
# The staff area's password: put the line \`referee-hub hash-password\` prints here.
# staff_password_hash = "scrypt\$..."
TOML
        install -m 0640 "$config" "$DESTDIR$CONF/hub.toml"
        rm -f "$config"
        say "installed $CONF/hub.toml (set staff_password_hash for the staff area)"
        changed+=("$CONF/hub.toml")
    else
        say "kept $CONF/hub.toml"
    fi
    sys chown "root:$HUB_USER" "$CONF/hub.toml"
    sys chown "$HUB_USER:$HUB_USER" "$DATA"
}

web_settings() { # hub.toml's lines for how the page is served (first install)
    local name list=()
    if [ -n "$proxy" ]; then
        printf '# Plain HTTP for the reverse proxy in front, which serves HTTPS to the staff and guests.\n'
        printf 'plain_http = true\ntrusted_proxy = "%s"\n' "$proxy"
        return 0
    fi
    printf '# HTTPS with a self-signed certificate the hub makes on its first start (its fingerprint: in the log,\n'
    printf '# and "referee-hub certificate --config FILE"); https_cert/https_key for one of your own.\n'
    for name in "${https_names[@]}"; do
        list+=("\"$name\"")
    done
    if [ ${#list[@]} -gt 0 ]; then
        local joined
        joined=$(IFS=,; echo "${list[*]}")
        printf 'https_names = [%s]\n' "${joined//,/, }"
    fi
}

pairing_settings() { # hub.toml: the broker's TLS address and the café's CA that a table gets when staff accept it
    local config=$DESTDIR$CONF/hub.toml names=() name address lines
    grep -q '^table_broker' "$config" && return 0
    mapfile -t names <"$DESTDIR$BROKER_DIR/tables.names"
    name=${names[0]}
    for address in "${names[@]}"; do # a .local name: tables find it by mDNS wherever DHCP put the hub
        if [[ $address == *.local ]]; then
            name=$address
            break
        fi
    done
    [[ $name == *:* ]] && name="[$name]"
    lines=$(printf '%s\n' "# Pairing (docs/cafe.md, \"Each table joins\"): what a table gets when staff accept it." \
        "table_broker = \"$name:$tls_port\"" "table_ca_file = \"$BROKER_DIR/tls/ca.crt\"")
    awk -v lines="$lines" '{ print } /^\[hub\]$/ { print lines }' "$config" >"$config.new"
    cat "$config.new" >"$config"
    rm -f "$config.new"
    say "tables that join get the broker at $name:$tls_port (table_broker in $CONF/hub.toml)"
}

show_certificate() { # the page's address and the certificate's fingerprint, for the staff to compare
    if [ -n "$DESTDIR" ]; then
        tool -m hub certificate --config "$DESTDIR$CONF/hub.toml" --data-dir "$DESTDIR$DATA" | sed "s/^/$PROG: /"
    else
        runuser -u "$HUB_USER" -- "$APP/venv/bin/referee-hub" certificate --config "$CONF/hub.toml" | sed "s/^/$PROG: /"
    fi
}

default_broker_names() { # this machine's names and addresses, for the broker's certificate
    local host address
    host=$(hostname)
    printf '%s\n' "$host" "$host.local"
    if [ -z "$DESTDIR" ]; then
        for address in $(hostname -I 2>/dev/null); do
            printf '%s\n' "$address"
        done
    fi
    printf '%s\n' localhost 127.0.0.1 ::1
}

configure_broker() {
    local known=() stamp=$DESTDIR$BROKER_DIR/tables conf names=() name args=()
    if [ -f "$stamp" ]; then
        mapfile -t known <"$stamp"
    fi
    local all
    mapfile -t all < <(printf '%s\n' "${known[@]}" "${tables[@]}" | sed '/^$/d' | sort -u)
    if [ ${#broker_names[@]} -gt 0 ]; then
        names=("${broker_names[@]}")
    elif [ -f "$stamp.names" ]; then
        mapfile -t names <"$stamp.names"
    else
        mapfile -t names < <(default_broker_names)
    fi
    for name in "${names[@]}"; do
        args+=(--name "$name")
    done
    [ ${#all[@]} -gt 0 ] && args+=(--tables "${all[@]}")
    local want
    want=$(printf '%s\n' "cafe $cafe port $broker_port tls $tls_port names ${names[*]}" "${all[@]}")
    if [ ! -f "$stamp.for" ] || [ "$(cat "$stamp.for")" != "$want" ]; then
        tool -m cafe broker-config --cafe "$cafe" --out "$DESTDIR$BROKER_DIR" --conf-d --port "$broker_port" \
            --tls-port "$tls_port" "${args[@]}" >/dev/null
        printf '%s\n' "${all[@]}" >"$stamp"
        printf '%s\n' "${names[@]}" >"$stamp.names"
        printf '%s\n' "$want" >"$stamp.for"
        say "wrote the broker's config in $BROKER_DIR (TLS on port $tls_port for ${names[*]}; plain on 127.0.0.1:$broker_port${all[*]:+; tables by files: ${all[*]}})"
        changed+=("$BROKER_DIR")
    else
        say "kept the broker's config in $BROKER_DIR"
    fi
    conf=$(mktemp)
    # The generated snippet names its folder; in a throwaway root, as the live system will see it.
    sed "s#$DESTDIR$BROKER_DIR#$BROKER_DIR#g" "$DESTDIR$BROKER_DIR/mosquitto.conf" >"$conf"
    put 0644 "$conf" "$BROKER_SNIPPET"
    rm -f "$conf"
    put 0640 "$DESTDIR$BROKER_DIR/passwords/hub" "$CONF/hub.password"
    sys chown "root:$HUB_USER" "$CONF/hub.password"
    sys chown -R mosquitto:mosquitto "$BROKER_DIR/dynsec" "$BROKER_DIR/tls/broker.key"
    if [ ${#all[@]} -gt 0 ]; then
        sys chown mosquitto:mosquitto "$BROKER_DIR/passwd" "$BROKER_DIR/acl"
    fi
}

configure_bridge() {
    case $bridge in
        keep) return 0 ;;
        off) remove "$BRIDGE_SNIPPET"; return 0 ;;
    esac
    local snippet args=(bridge-config --cafe "$cafe" --central "$bridge")
    [ -n "$bridge_user" ] && args+=(--remote-username "$bridge_user")
    [ -n "$bridge_password_file" ] && args+=(--remote-password-file "$bridge_password_file")
    snippet=$(mktemp)
    tool -m hub "${args[@]}" >"$snippet"
    put 0640 "$snippet" "$BRIDGE_SNIPPET"
    rm -f "$snippet"
    sys chown root:mosquitto "$BRIDGE_SNIPPET"
}

install_units() {
    put 0644 "$SRC/systemd/referee-hub.service" "$UNITS/referee-hub.service"
    sys systemctl daemon-reload
    sys systemctl enable referee-hub.service
    [ "$broker" = yes ] && sys systemctl enable mosquitto.service
    return 0
}

broker_changed() {
    local path
    for path in "${changed[@]}"; do
        case $path in /etc/mosquitto/*) return 0 ;; esac
    done
    return 1
}

do_install() {
    [ -z "$cafe" ] && cafe=$(configured_cafe)
    if [ -z "$cafe" ]; then
        echo "install-hub.sh: name the café (--cafe ID)" >&2
        exit 2
    fi
    if ! [[ $cafe =~ ^[a-z0-9][a-z0-9-]{0,31}$ ]]; then
        echo "install-hub.sh: the café id is 1-32 of a-z, 0-9, '-' (starting with a letter or digit)" >&2
        exit 2
    fi
    install_packages
    create_user
    install_program
    install_config
    if [ "$broker" = yes ]; then
        configure_broker
        configure_bridge
        pairing_settings
    fi
    install_units
    show_certificate
    if [ "$start" = yes ]; then
        if [ "$broker" = yes ] && broker_changed; then
            sys systemctl restart mosquitto.service
        fi
        sys systemctl restart referee-hub.service
        [ -z "$DESTDIR" ] && say "hub started; logs: journalctl -u referee-hub -f"
    fi
    say "tables: each asks to join in its admin menu (Café), staff accept it on the hub's staff page (docs/cafe.md)"
    if [ -f "$DESTDIR$BROKER_DIR/passwd" ]; then
        say "tables set up by files: copy $BROKER_DIR/passwords/table-ID to each table's [cafe] password_file"
    fi
}

do_uninstall() {
    if live systemctl cat referee-hub.service; then
        sys systemctl disable --now referee-hub.service
    fi
    remove "$UNITS/referee-hub.service" "$APP"
    sys systemctl daemon-reload
    if [ "$purge" = yes ]; then
        remove "$CONF/hub.toml" "$CONF/hub.password" "$CONF/hub.crt" "$CONF/hub.key" "$DATA" "$BROKER_SNIPPET" \
            "$BRIDGE_SNIPPET" "$BROKER_DIR"
        [ -d "$DESTDIR$CONF" ] && rmdir --ignore-fail-on-non-empty "$DESTDIR$CONF"
        if live id -u "$HUB_USER" || [ -n "$DESTDIR" ]; then
            sys userdel "$HUB_USER"
        fi
        if broker_changed && live systemctl is-active mosquitto.service; then
            sys systemctl restart mosquitto.service
        fi
    else
        say "kept $CONF/hub.toml, $DATA (the store) and the broker's users: --purge removes them"
    fi
}

if [ "$mode" = install ]; then
    do_install
else
    do_uninstall
fi
