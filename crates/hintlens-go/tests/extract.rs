//! What one Go file defines and uses, as snapshots of the index's dump.

use hintlens_go::Go;
use hintlens_syntax::Frontend;
use hintlens_tree::check_extraction as check;

check!(
    declarations_of_every_kind,
    Go,
    r#"// Package store keeps limits.
package store

import (
	"errors"
	"time"

	cfg "go.flipt.io/flipt/internal/config"
)

// MaxSize bounds a batch.
const MaxSize = 10

const (
	ModeA Mode = iota
	ModeB
)

var ErrNotFound = errors.New("not found")

// Mode says how.
type Mode int

type Alias = Mode

// Options configure a Store.
type Options struct {
	// Timeout bounds a call.
	Timeout time.Duration
	Retries, Backoff int
	*cfg.Config
	sync.Mutex
	hidden string
}

type Store interface {
	Get(key string) (string, error)
	SetLimit(n int)
	fmt.Stringer
}

type List[T any] struct {
	items []T
}

// New makes a Store.
func New(opts Options) *store {
	return &store{opts: opts}
}

func (s *store) SetLimit(n int) {
	s.limit = n
}

func (l *List[T]) Push(v T) { l.items = append(l.items, v) }
"#
);

check!(
    uses_and_bindings,
    Go,
    r#"package store_test

import (
	"testing"

	"go.flipt.io/flipt/internal/store"
	. "github.com/acme/helpers"
	_ "embed"
)

func TestSetLimit(t *testing.T) {
	s := store.New(store.Options{Timeout: 5, Retries: 2})
	s.SetLimit(3)
	limit := 4
	for i, v := range []store.Options{{Timeout: 1}} {
		_ = v.Timeout + i + limit
	}
	m := map[string]int{"a": 1}
	var x store.Store = s
	if y, ok := x.(interface{ Get(string) (string, error) }); ok {
		_ = y
	}
	switch v := x.(type) {
	case *store.Mode:
		_ = v
	}
	f := func(n int) int { return n + helper(m) }
	_ = f(len(m))
	Helped()
	undefinedHere()
	t.Fatalf("limit %d", errors.New("boom"))
}
"#
);

check!(
    syntax_errors_keep_the_readable_parts,
    Go,
    r#"package broken

func Good() int { return 1 }

func Bad( {
	x := 
}

type T struct { A int
"#
);

check!(
    names_bind_in_their_block,
    Go,
    r#"package storage

func TestValidate(t *testing.T) {
	c := constraint{Operator: "eq"}
	for _, tt := range tests {
		constraint := tt.constraint
		_ = constraint
	}
	if err := validate(c); err != nil {
		_ = err
	}
	_ = err
}
"#
);

/// The bug the `ts` fuzz target found in the TypeScript frontend, which Go's import paths shared:
/// a component's span measured in the lossily decoded path ran past the end of the text.
#[test]
fn invalid_utf8_in_an_import_path_keeps_spans_inside_the_text() {
    let mut text = b"package p\n\nimport \"github.com/o/".to_vec();
    text.extend([0xff; 20]);
    for text in [text.clone(), [text, b"\"\n".to_vec()].concat()] {
        let index = hintlens_go::Go.extract(&text);
        assert!(index.uses.iter().any(|u| u.name.contains('\u{fffd}')), "{}", index.dump());
        for u in &index.uses {
            assert!(u.span.end_byte as usize <= text.len(), "{} at {:?} is past the end", u.name, u.span);
        }
    }
}

check!(
    testify_mocks_name_methods_by_string,
    Go,
    r#"package fetch

import (
	"testing"

	"github.com/stretchr/testify/mock"
)

type fetcherMock struct{ mock.Mock }

func TestFetch(t *testing.T) {
	m := &fetcherMock{}
	m.On("Fetch", mock.Anything).Return(nil)
	m.AssertCalled(t, "Fetch", mock.Anything)
	m.AssertNumberOfCalls(t, `Close`, 1)
	m.On("not a name")
	t.Log("Fetch")
}
"#
);

/// Hostile nesting never exhausts the stack: chains, pointers, containers and parentheses tens
/// of thousands deep, extracted on a thread with a small stack.
#[test]
fn deep_nesting_is_read_without_recursion_limits() {
    let depth = 20_000;
    let inputs = [
        format!("package p\n\nvar a = {}y\n", "x.".repeat(depth)),
        format!("package p\n\nvar b = x{}\n", ".f()".repeat(depth)),
        format!("package p\n\nvar c = {}x{}\n", "f(".repeat(depth), ")".repeat(depth)),
        format!("package p\n\ntype S struct {{ {}T }}\n", "*".repeat(depth)),
        format!("package p\n\nvar d = {}T{{}}\n", "[]".repeat(depth)),
        format!("package p\n\nvar e = {}T{}{{}}\n", "(".repeat(depth), ")".repeat(depth)),
        format!("package p\n\nfunc f() {{ {}{} }}\n", "func() {".repeat(depth / 10), "}()".repeat(depth / 10)),
        format!("package p\n\nvar g = {}{}\n", "[]T{".repeat(depth / 10), "}".repeat(depth / 10)),
        format!("package p\n\nvar h = x{}\n", " + x".repeat(depth)),
    ];
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || inputs.iter().map(|src| Go.extract(src.as_bytes()).uses.len()).collect::<Vec<_>>())
        .unwrap();
    let uses = handle.join().expect("no stack overflow");
    // Every name is still read, as a use of some kind.
    assert_eq!(uses, [depth + 1, depth + 1, depth + 1, 1, 1, 1, 0, depth / 10, depth + 1]);
}
