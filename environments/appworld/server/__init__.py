"""The AppWorld bridge server: code that runs INSIDE the AppWorld virtual environment.

Nothing here is imported by the main environment (it would need ``appworld`` and pydantic 1); the
main side starts ``main.py`` as a subprocess and speaks JSON lines to it (see ``bridge.py``).
"""
