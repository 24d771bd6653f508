package cli

import (
	"os"
)

// HostCABundle is Debian's bundle of trusted CAs. Embedded mode hands it to
// install steps by default: behind a TLS-intercepting proxy (corporate
// networks, these build machines) the proxy's CA is in it, and without it
// every npm, Go-module or cargo download fails on certificates.
const HostCABundle = "/etc/ssl/certs/ca-certificates.crt"

// caBundle resolves --ca-bundle for the embedded executor: "auto" is the
// host bundle when it is readable (else none), "none" disables it, anything
// else must be a readable file.
func (a *app) caBundle() (string, error) {
	switch a.caBundleFlag {
	case "", "auto":
		if _, err := os.Stat(HostCABundle); err == nil {
			return HostCABundle, nil
		}
		return "", nil
	case "none":
		return "", nil
	}
	f, err := os.Open(a.caBundleFlag)
	if err != nil {
		return "", usagef("--ca-bundle: %v (give a PEM file, \"auto\" or \"none\")", err)
	}
	_ = f.Close()
	return a.caBundleFlag, nil
}
