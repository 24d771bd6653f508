package detect

// INISection is one [section] of an INI file (tox.ini, setup.cfg): its
// line and its keys, each with value and line.
type INISection = iniSection

// ParseINI reads the lenient INI dialect of setup.cfg and tox.ini (see
// parseINI); the CI reader uses it for tox.ini's commands.
func ParseINI(data []byte) map[string]*INISection { return parseINI(data) }

// ToxEnvList expands a tox envlist value ("py{310..312}, lint") into
// environment names.
func ToxEnvList(v string) []string { return toxEnvList(v) }
