// Package web is the gateway's HTTP side: the list of recent runs and the
// human report page of a run, built with net/http and html/template and no
// front-end build step.
//
// Routes (all GET):
//
//	/                            recent runs
//	/runs/{id}                   the report: banner, patches, steps, tests, score
//	/runs/{id}/summary           the report's summary block alone (live refresh)
//	/runs/{id}/events            live progress as Server-Sent Events (from WatchRun)
//	/runs/{id}/logs/{step}       a step's full stored log, text/plain, streamed
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
