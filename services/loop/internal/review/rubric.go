package review

// Criterion is one line of the seed's rubric (Code Tumbler §2.2).
type Criterion struct {
	// Name is the JSON key the reviewer answers under.
	Name string
	// Max is the line's maximum score.
	Max float64
	// Meaning tells the reviewer what the line judges.
	Meaning string
}

// Rubric is the seed's recommended breakdown, in order; its maxima sum to 10.
var Rubric = []Criterion{
	{"correctness", 3, "does the code do what the plan asks, judged against the execution results"},
	{"completeness", 2, "is everything the plan asks for implemented"},
	{"testing", 2, "do tests exist, exercise the change and pass"},
	{"code_quality", 2, "readability, structure, naming, error handling"},
	{"best_practices", 1, "idiomatic use of the language and its tools, no insecure defaults"},
}
