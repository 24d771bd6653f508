// Package web is the gateway's HTTP side: the list of recent runs and the
// human report page of a run, built with net/http and html/template and no
// front-end build step.
//
// Routes (all GET):
//
//	/                            recent runs; ?status= filters (running, passed, failed, error, stopped)
//	/fragments/runs              the runs list alone (the front page polls it to stay current)
//	/runs/{id}                   the report: banner, a fix run's baseline and rounds side by side,
//	                             patches, steps, tests, score, stop memo (Markdown, sanitized)
//	/runs/{id}/summary           the report's summary block alone (live refresh)
//	/runs/{id}/events            live progress as Server-Sent Events (from WatchRun)
//	/runs/{id}/logs/{step}       a step's log as numbered, anchored lines (#L12) with a filter box;
//	                             ?attempt=N picks a fix run's baseline (0) or round N
//	/runs/{id}/logs/{step}/raw   the stored log bytes, text/plain, streamed
//	/runs/{id}/code/{path...}    one file of a snapshot of the run (?snapshot=HASH), lines anchored
//	/runs/{id}/result.json       the output contract Result as JSON
//	/static/{file}               the page's CSS and JS
//	/healthz                     "ok" (the only route without auth)
//
// The banner is the page's promise to a reviewer: it says "Execution
// passed" only for a PASS verdict backed by steps that really ran with exit
// code 0, and otherwise says exactly what failed (step, command, exit
// code) or that nothing can be concluded. Every value from a run is
// escaped by html/template; logs are served as text/plain with nosniff and
// a sandboxing CSP, and the page's own script only ever sets textContent.
package web
