package cli

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manCmd writes the man pages of every command, generated from the command
// tree itself (cobra/doc, rendered to roff by go-md2man), so they say what
// --help says. make dist ships them; `man -l DIR/greenlight.1` reads one
// in place.
func (a *app) manCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "man DIR",
		Short: "Write the man pages (greenlight.1, greenlight-verify.1, ...) into DIR",
		Long: `man writes one page per command, section 1, into DIR (created when
missing): greenlight.1, greenlight-verify.1, and so on. Install them under a
MANPATH directory's man1/, or read one in place with man -l DIR/greenlight.1.
The pages' date is SOURCE_DATE_EPOCH when set (reproducible builds), else
today.`,
		Args: exactArgs(1, "the directory to write the pages into"),
		RunE: func(cmd *cobra.Command, args []string) error {
			date, err := manDate(a.env.Getenv("SOURCE_DATE_EPOCH"))
			if err != nil {
				return usagef("SOURCE_DATE_EPOCH: %v", err)
			}
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return fmt.Errorf("man pages: %w", err)
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true
			header := &doc.GenManHeader{Title: "GREENLIGHT", Section: "1", Source: "greenlight " + root.Version,
				Manual: "greenlight manual", Date: &date}
			if err := doc.GenManTree(root, header, args[0]); err != nil {
				return fmt.Errorf("man pages: %w", err)
			}
			fmt.Fprintf(a.env.Stderr, "greenlight: man pages written to %s\n", args[0])
			return nil
		},
	}
}

// manDate is the pages' date: SOURCE_DATE_EPOCH (seconds) when set.
func manDate(epoch string) (time.Time, error) {
	if epoch == "" {
		return time.Now().UTC(), nil
	}
	s, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a number of seconds", epoch)
	}
	return time.Unix(s, 0).UTC(), nil
}
