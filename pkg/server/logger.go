package server

import (
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/term"
)

// NewLogger builds the service logger writing to stderr, in the format and
// at the level cfg names. "auto" means console when stderr is a terminal
// (a person is watching) and JSON otherwise (a log collector is).
func NewLogger(cfg Config) (*zap.Logger, error) {
	return NewLoggerTo(cfg, os.Stderr)
}

// NewLoggerTo is NewLogger writing to w; "auto" picks console only when w is
// a terminal *os.File.
func NewLoggerTo(cfg Config, w io.Writer) (*zap.Logger, error) {
	level, err := parseLevel(cfg.LogLevel)
	if err != nil {
		return nil, fmt.Errorf("%w: log-level: %w", ErrConfig, err)
	}
	f, _ := w.(*os.File)
	format, err := resolveFormat(cfg.LogFormat, f)
	if err != nil {
		return nil, fmt.Errorf("%w: log-format: %w", ErrConfig, err)
	}
	encCfg := zap.NewProductionEncoderConfig()
	encCfg.EncodeTime = zapcore.ISO8601TimeEncoder
	encCfg.EncodeDuration = zapcore.StringDurationEncoder
	var enc zapcore.Encoder
	if format == LogFormatConsole {
		encCfg.EncodeLevel = zapcore.CapitalColorLevelEncoder
		enc = zapcore.NewConsoleEncoder(encCfg)
	} else {
		enc = zapcore.NewJSONEncoder(encCfg)
	}
	core := zapcore.NewCore(enc, zapcore.Lock(zapcore.AddSync(w)), level)
	log := zap.New(core, zap.AddCaller(), zap.AddStacktrace(zapcore.DPanicLevel))
	if cfg.Name != "" {
		log = log.With(zap.String("service", cfg.Name))
	}
	return log, nil
}

func parseLevel(s string) (zapcore.Level, error) {
	if s == "" {
		return zapcore.InfoLevel, nil
	}
	return zapcore.ParseLevel(s)
}

// resolveFormat maps "auto" to console or JSON depending on whether f is a
// terminal (f may be nil: not a terminal).
func resolveFormat(format string, f *os.File) (string, error) {
	switch format {
	case LogFormatJSON, LogFormatConsole:
		return format, nil
	case LogFormatAuto, "":
		if f != nil && term.IsTerminal(int(f.Fd())) {
			return LogFormatConsole, nil
		}
		return LogFormatJSON, nil
	default:
		return "", fmt.Errorf("unknown log format %q (want auto, json or console)", format)
	}
}
