"""The project's benchmarks and drills, run as modules from the project's folder (`python -m benchmarks.kiosk`), so
they import the packages and the tests' drivers (`tests.kiosk_process`, …) as the tests do: no path patching."""
