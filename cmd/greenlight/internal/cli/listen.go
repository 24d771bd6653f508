package cli

import (
	"net"
	"strconv"

	"github.com/spf13/cobra"
)

// listenPorts is serve's port scheme around --listen's PORT: the one the
// default addresses follow (gateway 7070, discovery 7071, executor 7072,
// loop 7073, report pages 7080).
var listenPorts = []struct {
	flag   string
	offset int
}{
	{"gateway-addr", 0}, {"discovery-addr", 1}, {"executor-addr", 2}, {"loop-addr", 3}, {"http-addr", 10},
}

// listenUsage is --listen's help line.
const listenUsage = "base `host:port`: gateway on PORT, discovery PORT+1, executor PORT+2, loop PORT+3, report pages and HTTP/JSON PORT+10 (an address flag given as well wins; port 0: a free port each)"

// applyListen sets every address flag of cmd that the command line did not
// set from --listen HOST:PORT; an empty listen changes nothing. Port 0
// stays 0 for every listener, so each gets a free port of its own.
func applyListen(cmd *cobra.Command, listen string) error {
	if listen == "" {
		return nil
	}
	host, portText, err := net.SplitHostPort(listen)
	maxOffset := listenPorts[len(listenPorts)-1].offset
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil || port < 0 || port+maxOffset > 65535 {
		return usagef("--listen %q: want HOST:PORT with PORT from 0 to %d (the report pages take PORT+%d)", listen, 65535-maxOffset, maxOffset)
	}
	for _, p := range listenPorts {
		if cmd.Flags().Changed(p.flag) {
			continue
		}
		n := port + p.offset
		if port == 0 {
			n = 0
		}
		if err := cmd.Flags().Set(p.flag, net.JoinHostPort(host, strconv.Itoa(n))); err != nil {
			return usagef("--listen: %v", err)
		}
	}
	return nil
}
