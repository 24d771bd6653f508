// Package warm is compiled, vetted and tested once while the go image is
// built, so that the standard-library packages most programs use are already
// in the image's seed build cache (see ../entrypoint.sh).
package warm

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"database/sql"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"
)

// Use references one name from every imported package.
var Use = []any{
	bufio.NewReader, bytes.NewBuffer, context.Background, sha256.New,
	tls.Client, sql.Open, base64.StdEncoding, csv.NewReader, json.Marshal,
	xml.Marshal, errors.New, flag.Parse, fmt.Sprintf, io.Copy, log.Println,
	slog.Info, rand.IntN, net.Dial, http.Get, httptest.NewServer, url.Parse,
	os.Open, exec.Command, signal.Notify, filepath.Join, regexp.MustCompile,
	slices.Sort[[]int], sort.Strings, strconv.Itoa, strings.Split,
	new(sync.Mutex), template.New, time.Now,
}
