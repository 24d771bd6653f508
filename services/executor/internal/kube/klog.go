package kube

import (
	"github.com/go-logr/logr"
	"go.uber.org/zap"
	"k8s.io/klog/v2"
)

// routeKlog sends client-go's own logging (klog, global) to log at debug
// level: its stream goroutines report every closed exec or attach
// connection as an "Unhandled Error", which is how the driver ends them.
func routeKlog(log *zap.Logger) {
	klog.SetLogger(logr.New(&zapSink{log: log.WithOptions(zap.AddCallerSkip(2)).Named("client-go")}))
}

// zapSink is a logr.LogSink writing to zap at debug level.
type zapSink struct {
	log *zap.Logger
}

func (s *zapSink) Init(logr.RuntimeInfo)  {}
func (s *zapSink) Enabled(level int) bool { return s.log.Core().Enabled(zap.DebugLevel) }

func (s *zapSink) Info(level int, msg string, kv ...any) {
	s.log.Debug(msg, zap.Int("v", level), zap.Any("fields", kv))
}

func (s *zapSink) Error(err error, msg string, kv ...any) {
	s.log.Debug(msg, zap.Error(err), zap.Any("fields", kv))
}

func (s *zapSink) WithValues(kv ...any) logr.LogSink {
	return &zapSink{log: s.log.With(zap.Any("values", kv))}
}

func (s *zapSink) WithName(name string) logr.LogSink { return &zapSink{log: s.log.Named(name)} }
