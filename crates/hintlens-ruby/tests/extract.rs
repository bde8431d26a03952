//! What one Ruby file defines and uses, as snapshots of the index's dump.

use hintlens_ruby::Ruby;
use hintlens_syntax::{Binding, DefKind, Frontend, UseKind};
use hintlens_tree::check_extraction as check;

check!(
    definitions_of_every_kind,
    Ruby,
    r#"require "json"

module Shop
  # How long a checkout may take.
  TIMEOUT = 5

  # A cart of items.
  class Cart < Base
    include Comparable
    attr_reader :items
    attr_writer :note
    attr_accessor :owner

    def initialize(items, retries: 3, **rest)
      @items = items
    end

    # The sum.
    def total = items.sum(&:price)

    def self.build(*args) = new(args)

    class << self
      def empty; new([]); end
    end

    define_method(:size) { items.size }
    alias_method :count, :size
    alias length size

    def method_missing(name, *args) = super

    private

    def helper; end
  end

  Point = Struct.new(:x, :y) do
    def norm = x + y
  end
  Money = Data.define(:amount)
end

class Shop::Cart
  def discount; end
end

def top_level(a, b = 1); end
"#
);

check!(
    uses_of_every_kind,
    Ruby,
    r##"require_relative "../lib/shop/cart"
require "shop/point"

cart = Shop::Cart.new([], retries: 1)
cart.total
cart.owner = "me"
total
::Shop::TIMEOUT
Shop::Cart.build(1)
checkout(retries: 2)
items.each { |item| item.price }
[1].map(&:succ)
cart.send(:helper)
cart.public_send("discount")
cart.respond_to?(:size)
raise ArgumentError, "bad cart"
x = 1
x
"#{interpolated}"
config.retries
self.owner
@tester.word(exclude_words: [])
make.run(fast: true)
"##
);

check!(
    rspec_and_minitest,
    Ruby,
    r##"require "spec_helper"

RSpec.describe Shop::Cart do
  let(:total) { 3 }
  subject(:cart) { described_class.new }

  describe "#discount" do
    it "sums" do
      expect(cart.total).to eq(total)
      allow(cart).to receive(:helper).and_return(1)
      expect(cart).to have_received(:owner)
      double = instance_double(Shop::Cart, size: 2)
      allow(cart).to receive_messages(count: 1, note: nil)
      expect { cart.checkout }.to raise_error(ArgumentError, "bad")
      build_item
    end
  end

  def build_item = Item.new
end

class CartTest < Minitest::Test
  def setup; end

  def test_total
    assert_equal 3, Shop::Cart.new.total
  end

  test "counts" do
    assert Shop::Cart.new.count
  end
end
"##
);

check!(syntax_errors_keep_what_is_readable, Ruby, "class Cart\n  def total(\n    items.sum\n  end\n\ndef after; end\n");

/// A bare name is a local where its scope assigned it before, a method call elsewhere: before
/// the assignment, in a `def` (which sees no outer local), and in a block it is visible from.
#[test]
fn bare_names_are_locals_only_after_their_assignment() {
    let src = "total\ntotal = 1\ntotal\ndef m\n  total\nend\n[1].each { total }\n";
    let index = Ruby.extract(src.as_bytes());
    let bindings: Vec<(u32, Binding)> =
        index.uses.iter().filter(|u| u.name == "total").map(|u| (u.span.start.line, u.binding)).collect();
    assert_eq!(
        bindings,
        [(0, Binding::Free), (2, Binding::Local), (4, Binding::Free), (6, Binding::Local)],
        "{}",
        index.dump()
    );
}

/// `attr_accessor :x` defines `x` and `x=`; `obj.x = 1` calls `x=`.
#[test]
fn accessors_define_readers_and_writers() {
    let index = Ruby.extract(b"class C\n  attr_accessor :x\nend\nc.x = 1\n");
    let methods: Vec<&str> =
        index.definitions.iter().filter(|d| d.kind == DefKind::Method).map(|d| d.name.as_str()).collect();
    assert_eq!(methods, ["x", "x="]);
    assert!(index.uses.iter().any(|u| u.name == "x=" && u.kind == UseKind::Call));
}

/// `autoload :Cart, "shop/cart"` requires its second argument; a regular expression's
/// interpolation is code.
#[test]
fn autoload_paths_and_regex_interpolations() {
    let index = Ruby.extract(b"autoload :Cart, \"shop/cart\"\nok = /#{Cart::PATTERN}/\n");
    assert!(index.uses.iter().any(|u| u.name == "cart" && u.qualifier.as_deref() == Some("shop")), "{}", index.dump());
    assert!(index.uses.iter().any(|u| u.name == "PATTERN"), "{}", index.dump());
}

/// No input makes extraction panic: NUL bytes, unterminated heredocs, deep nesting.
#[test]
fn hostile_inputs_extract() {
    for src in ["<<~EOS\n", "\0def a\0", &"[".repeat(5000), &"a.".repeat(3000), "class << \n", "def (x).y; end"] {
        let _ = Ruby.extract(src.as_bytes());
    }
}

/// `private :name` after the `def` (or `attr_reader`) makes the method private as `private def`
/// and a bare `private` above it do; a method of the same name in another class stays public.
#[test]
fn private_symbols_make_methods_private() {
    let src = "class Cart\n  def helper; end\n  attr_reader :secret\n  def shown; end\n  private :helper, :secret\n  private def inline; end\nend\nclass Other\n  def helper; end\nend\n";
    let index = Ruby.extract(src.as_bytes());
    let private: Vec<(&str, bool)> = index
        .definitions
        .iter()
        .filter(|d| d.kind == DefKind::Method)
        .map(|d| (d.local_name.as_str(), Ruby.is_private(d)))
        .collect();
    assert_eq!(
        private,
        [
            ("Cart.helper", true),
            ("Cart.secret", true),
            ("Cart.shown", false),
            ("Cart.inline", true),
            ("Other.helper", false)
        ]
    );
}
