package patch

// suspectNondeterminism: library code a patch makes depend on chance (a
// random source, the clock's parity). A fix that works only some of the
// time passes a single graded run by luck; a file that already drew on
// the same source before the patch is exempt (jitter, ids, sampling are
// features there).
const suspectNondeterminism = "nondeterminism"

// whyRandom is the nondeterminism rule's reason.
const whyRandom = "a fix may not depend on chance (%s): the tests must pass every time, for every run; compute the result from the inputs"

// Random sources and clock parity by language.
const (
	pyRandom = `\brandom\.(random|randint|randrange|choice|choices|getrandbits|uniform|shuffle|sample|betavariate|gauss)\s*\(|` +
		`\.(random|randint|randrange|getrandbits|urandom|token_bytes|token_hex)\s*\(|\b(__import__|import_module)\s*\(\s*""\s*\)\s*\.\s*(random|randint|choice)\b|` +
		`\bsecrets\.\w+\s*\(|\bos\.urandom\s*\(|\buuid\.uuid4\s*\(|\btime\.(time|time_ns|perf_counter|monotonic)(_ns)?\(\)\)?\s*%`
	jsRandom = `\bMath\.random\s*\(|\bcrypto\.(randomBytes|randomInt|randomUUID|getRandomValues)\s*\(|` +
		`\b(Date\.now\(\)|performance\.now\(\)|process\.hrtime(\.bigint)?\(\))\s*%`
	goRandom = `\brand\.(Intn|IntN|Int|Int31|Int31n|Int63|Int63n|Uint32|Uint64|Float32|Float64|Perm|Shuffle|N|Read)\s*\(|` +
		`\btime\.Now\(\)\.(Unix|UnixNano|UnixMilli|UnixMicro|Nanosecond|Second)\(\)\s*%`
)

// randomPattern is the nondeterminism rule for one language's sources.
func randomPattern(re string) auditPattern {
	return pat(suspectNondeterminism, inCode, re, whyRandom).inBaseline()
}
