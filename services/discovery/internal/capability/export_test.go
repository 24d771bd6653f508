package capability

// Covers exposes covers to the external tests.
var Covers = covers
