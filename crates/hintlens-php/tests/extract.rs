//! What one PHP file defines and uses, as snapshots of the index's dump.

use hintlens_php::Php;
use hintlens_syntax::{DefKind, Frontend, UseKind};
use hintlens_tree::check_extraction as check;

check!(
    declarations_of_every_kind,
    Php,
    r#"<?php
declare(strict_types=1);

namespace App\Http;

/** The default timeout. */
const LIMIT = 5;
define('APP_DEBUG', false);

/**
 * Sends requests.
 */
#[Attr(1)]
final class Client extends Base implements Sender, \Countable
{
    use Retries;

    public const TIMEOUT = 30;
    private static ?int $count = 0;
    public readonly string $name;
    protected $a, $b = [];

    public function __construct(private readonly Logger $logger, int $retries = 1) {}

    /** Makes a client. */
    public static function make(string $name): static
    {
        return new static();
    }

    private function helper(int ...$rest): void {}

    public function __get($name) {}
}

interface Sender { public function send(Request $r): Response; }

trait Retries { abstract protected function attempts(): int; }

enum Suit: string
{
    case Hearts = 'H';
    const Wild = self::Hearts;
    public function label(): string { return ucfirst($this->value); }
}

function helper(int $a, ?Client $c = null) { return \strlen($a); }
"#
);

check!(
    uses_of_every_kind,
    Php,
    r#"<?php
namespace App\Http;

use App\Models\{User, Post as P};
use function App\Support\format_name;
use const App\Support\VERSION;
use Psr\Log\LoggerInterface as Logger;

class Service
{
    public function run(Logger $log, User|P|null $who): ?Response
    {
        $client = Client::make('x');
        $client->send(timeout: 5);
        $client?->options->retries = 3;
        $this->logger->info(VERSION);
        self::$count++;
        static::TIMEOUT;
        parent::boot();
        $class = Client::class;
        $limit = \App\Config::LIMIT;
        if ($who instanceof User) {}
        try {
            format_name($who, upper: true);
        } catch (NotFound | \RuntimeException $e) {
            throw new Failure('could not run', previous: $e);
        }
        $f = fn(Request $r): Response => $r->reply();
        $g = function (int $x) use ($client) { return $client->get($x); };
        $anonymous = new class($log) extends Base { public function inner(): void {} };
        return new Response(status: 200);
    }
}
"#
);

check!(
    variables_are_never_uses,
    Php,
    r#"<?php
class Counter
{
    public int $total = 0;

    public function add(int $total): void
    {
        $total = $total + 1;
        $name = 'total';
        $this->total += $total;
        echo "{$total} and $name";
    }
}
"#
);

check!(
    phpunit_tests_and_strings_naming_members,
    Php,
    r#"<?php
namespace App\Tests;

use App\Http\Client;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Test;

final class ClientTest extends TestCase
{
    public function testSends(): void
    {
        $mock = $this->createMock(Client::class);
        $mock->expects($this->once())->method('send')->willReturn(true);
        $this->expectExceptionMessage('Timed out');
        array_map([$this, 'normalise'], []);
        usort($list, [Client::class, 'compare']);
    }

    /**
     * @dataProvider provideCases
     */
    public function testCases(int $a): void {}

    #[DataProvider('provideMore')]
    public function testMore(): void {}

    /** @test */
    public function it_marks_by_annotation(): void {}

    #[Test]
    public function marks_by_attribute(): void {}

    public static function provideCases(): iterable { yield [1]; }

    private function normalise(string $s): string { return $s; }
}

it('works', function () {
    expect(true)->toBeTrue();
});
"#
);

check!(
    inline_html_and_braced_namespaces,
    Php,
    r#"<html><body>
<?php namespace Views { function title(): string { return 'x'; } } ?>
<h1><?= Views\title() ?></h1>
<?php namespace { echo \Views\title(); } ?>
</body></html>
"#
);

check!(
    syntax_errors_keep_what_is_readable,
    Php,
    r#"<?php
class Broken {
    public function ok(): void {}
    public function bad( {
}
function after() {}
"#
);

/// A promoted constructor parameter is a property of its class and a keyword of `new`.
#[test]
fn a_promoted_parameter_is_a_property_and_a_parameter() {
    let index = Php.extract(b"<?php class C { public function __construct(private int $timeout) {} }");
    let kinds: Vec<(DefKind, &str)> =
        index.definitions.iter().filter(|d| d.name == "timeout").map(|d| (d.kind, d.local_name.as_str())).collect();
    assert_eq!(kinds, [(DefKind::Parameter, "C.__construct.timeout"), (DefKind::Property, "C.timeout")]);
    let constructor = index.definitions.iter().find(|d| d.name == "__construct").unwrap();
    assert_eq!(constructor.kind, DefKind::Constructor);
    assert!(Php.is_special(constructor));
}

/// `$x` never names anything: no use of a property `x` comes from a local.
#[test]
fn a_local_of_a_propertys_name_is_no_use() {
    let index = Php.extract(b"<?php function f() { $name = 1; return $name; }");
    assert!(index.uses.iter().all(|u| u.name != "name"), "{:?}", index.uses);
}

/// A member use reaches only members, a type position only class-like types.
#[test]
fn namespaces_of_members_and_types_are_apart() {
    assert!(Php.use_can_reach(DefKind::Method, UseKind::Call));
    assert!(!Php.use_can_reach(DefKind::Method, UseKind::Attribute));
    assert!(!Php.use_can_reach(DefKind::Property, UseKind::Call));
    assert!(Php.use_can_reach(DefKind::Constant, UseKind::Attribute));
    assert!(!Php.use_can_reach(DefKind::Class, UseKind::Call));
}

check!(
    required_files_are_uses_of_their_modules,
    Php,
    r#"<?php
require_once __DIR__ . '/../src/helpers.php';
include 'views/page.php';
require $dynamic;
"#
);

check!(
    heredocs_nowdocs_and_interpolations,
    Php,
    r#"<?php
$a = <<<EOT
hello {$this->name} and {$user->profile()}
EOT;
$b = <<<'RAW'
raw $x {$y->z}
RAW;
$c = "a{$o->p}b\n";
"#
);
