"""The plugin machinery: the hook specifications, the manager that loads built-in plugins, entry
points and a folder of loose plugins, the built-in issue codes, and the errors of loading them."""
