#!/usr/bin/env bash
# Creates the small task repository the editor end-to-end tests run against.
#
#   make-task-repo.sh DIR
#
# DIR (created if missing, must be empty) becomes a git repository whose HEAD
# (the base revision) has pkg/text.py defining `shout` and a test of it; the
# work tree then holds the reference state, uncommitted:
#   - code change: pkg/text.py adds `def slugify(title, sep="-")`
#   - test change: tests/test_text.py imports and calls `slugify`
#   - task.md, a problem statement that does not mention `slugify`
#     (untracked; used by tests that configure `statement`)
# and, in Go, store/store.go's `Store` gains `SetLimit`, which store/store_test.go calls;
# in TypeScript, web/format.ts gains `formatBytes`, which web/format.test.ts imports and calls;
# in PHP, src/Greeter.php's `Greeter` gains `shout`, which tests/GreeterTest.php calls.
set -euo pipefail

dir=${1:?usage: make-task-repo.sh DIR}
mkdir -p "$dir"
cd "$dir"
if [ -n "$(ls -A .)" ]; then
    echo "make-task-repo.sh: $dir is not empty" >&2
    exit 2
fi

git_() {
    git -c user.name=hintlens-test -c user.email=hintlens-test@example.invalid \
        -c commit.gpgsign=false -c init.defaultBranch=main -c core.autocrlf=false "$@"
}

git_ init -q
mkdir -p pkg tests store web src

cat > pkg/__init__.py <<'PY'
PY
cat > pkg/text.py <<'PY'
def shout(text):
    return text.upper() + "!"
PY
cat > tests/__init__.py <<'PY'
PY
cat > tests/test_text.py <<'PY'
from pkg.text import shout


def test_shout():
    assert shout("hi") == "HI!"
PY
cat > store/store.go <<'GO'
package store

type Store struct {
	limit int
}
GO
cat > store/store_test.go <<'GO'
package store

import "testing"

func TestStore(t *testing.T) {
	_ = Store{}
}
GO
cat > web/format.ts <<'TS'
export function formatCount(n: number): string {
  return n.toLocaleString('en');
}
TS
cat > web/format.test.ts <<'TS'
import { formatCount } from './format';

test('formatCount', () => {
  expect(formatCount(1000)).toBe('1,000');
});
TS
cat > src/Greeter.php <<'PHP'
<?php

namespace App;

final class Greeter
{
    public function hello(string $name): string
    {
        return "Hello, $name";
    }
}
PHP
cat > tests/GreeterTest.php <<'PHP'
<?php

namespace App\Tests;

use App\Greeter;
use PHPUnit\Framework\TestCase;

final class GreeterTest extends TestCase
{
    public function testHello(): void
    {
        $this->assertSame('Hello, Ada', (new Greeter())->hello('Ada'));
    }
}
PHP
git_ add -A
git_ commit -q -m "base"

cat > src/Greeter.php <<'PHP'
<?php

namespace App;

final class Greeter
{
    public function hello(string $name): string
    {
        return "Hello, $name";
    }

    /** Greets loudly. */
    public function shout(string $name): string
    {
        return strtoupper($this->hello($name)) . '!';
    }
}
PHP
cat > tests/GreeterTest.php <<'PHP'
<?php

namespace App\Tests;

use App\Greeter;
use PHPUnit\Framework\TestCase;

final class GreeterTest extends TestCase
{
    public function testHello(): void
    {
        $this->assertSame('Hello, Ada', (new Greeter())->hello('Ada'));
    }

    public function testLoudly(): void
    {
        $this->assertSame('HELLO, ADA!', (new Greeter())->shout('Ada'));
    }
}
PHP

cat > web/format.ts <<'TS'
export function formatCount(n: number): string {
  return n.toLocaleString('en');
}

/** Renders a size in bytes with a binary unit. */
export function formatBytes(size: number): string {
  return size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KiB`;
}
TS
cat > web/format.test.ts <<'TS'
import { formatBytes, formatCount } from './format';

test('formatCount', () => {
  expect(formatCount(1000)).toBe('1,000');
});

test('formatBytes', () => {
  expect(formatBytes(2048)).toBe('2.0 KiB');
});
TS

cat > store/store.go <<'GO'
package store

type Store struct {
	limit int
}

// SetLimit bounds the store.
func (s *Store) SetLimit(n int) {
	s.limit = n
}
GO
cat > store/store_test.go <<'GO'
package store

import "testing"

func TestStore(t *testing.T) {
	_ = Store{}
}

func TestSetLimit(t *testing.T) {
	s := &Store{}
	s.SetLimit(3)
}
GO

cat > pkg/text.py <<'PY'
def shout(text):
    return text.upper() + "!"


def slugify(title, sep="-"):
    return sep.join(title.lower().split())
PY
cat > tests/test_text.py <<'PY'
from pkg.text import shout, slugify


def test_shout():
    assert shout("hi") == "HI!"


def test_slugify():
    assert slugify("Hello World") == "hello-world"
    assert slugify("Hello World", sep="_") == "hello_world"
PY
cat > task.md <<'MD'
# Turn titles into URL fragments

Page titles should be usable in URLs: lower-case them and join the words with a dash,
or with another separator the caller chooses.
MD
