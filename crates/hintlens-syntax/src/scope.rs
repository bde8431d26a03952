//! Lexical scopes for frontends, so that every use can say how its head is bound where it
//! stands ([`Binding`]).
//!
//! A frontend's walk opens scopes, binds names in them and records each use's head as it goes;
//! [`Scopes::finish`] decides every use once the file is over. Deciding at the end is what
//! Python needs (a name is bound in its whole scope, wherever the binding statement stands) and
//! is harmless where a language declares before use.

use crate::{Binding, Use, name_hash};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

pub type ScopeId = u32;

/// The file's (module's) scope, open from the start.
pub const MODULE: ScopeId = 0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    /// The file's scope, or a module nested in it (Rust's `mod x { … }`), which sees nothing of
    /// the scopes around it: their names reach it only through imports.
    Module,
    /// A Python class body: its names are visible in the body itself, not in the methods nested
    /// in it.
    Class,
    /// A function, method, lambda or block: its names are visible in the scopes nested in it.
    Function,
    /// A block of a language that declares before use (Go's function bodies and blocks): a name
    /// is bound from its declaration on, so a use before it (`info := info.Flipt{}`, the value of
    /// the declaration that binds it) sees the binding around the block.
    Block,
    /// A block whose values are bound from their assignment on but whose definitions are seen
    /// throughout (Ruby's `do … end` and `{ … }`: a local exists once assigned, while a helper
    /// method or `let` defined below an example is called from it all the same).
    OpenBlock,
    /// An [`ScopeKind::OpenBlock`] that sees the definitions of the scopes around it but not
    /// their values: Ruby's `def`, `class` and `module` bodies, where an outer local is out of
    /// reach while a method of the enclosing class or example group is still called bare.
    SealedBlock,
    /// A comprehension or generator expression: its targets are its own, but an assignment
    /// expression (`:=`) in it binds in the enclosing function.
    Comprehension,
}

pub struct Scopes {
    /// Each scope's parent and kind, by id.
    scopes: Vec<(Option<ScopeId>, ScopeKind)>,
    /// Each name's binding in a scope, and when (in [`Scopes::clock`] ticks) it was first bound.
    bound: HashMap<(ScopeId, u64), (Binding, u32), KeyHash>,
    /// Names a `global` or `nonlocal` statement hands to an outer scope: assigning them binds
    /// nothing in this one.
    outer: HashSet<(ScopeId, u64), KeyHash>,
    current: ScopeId,
    /// Uses waiting for their binding: index into the file's uses, scope, hash of the head, and
    /// when the use was recorded.
    pending: Vec<(u32, ScopeId, u64, u32)>,
    /// Bindings and uses in the order the walk met them.
    clock: u32,
    /// The type each local bound by [`Scopes::bind_typed`] holds a value of.
    types: HashMap<(ScopeId, u64), String, KeyHash>,
}

impl Default for Scopes {
    fn default() -> Scopes {
        Scopes::new()
    }
}

impl Scopes {
    pub fn new() -> Scopes {
        Scopes {
            scopes: vec![(None, ScopeKind::Module)],
            bound: HashMap::default(),
            outer: HashSet::default(),
            current: MODULE,
            pending: Vec::new(),
            clock: 0,
            types: HashMap::default(),
        }
    }

    /// A new scope nested in the current one, not yet entered (parameter names are bound in a
    /// function's scope while their defaults are still read in the enclosing one).
    pub fn open(&mut self, kind: ScopeKind) -> ScopeId {
        let id = self.scopes.len() as ScopeId;
        self.scopes.push((Some(self.current), kind));
        id
    }

    /// Makes `scope` current; returns the scope to go back to.
    pub fn enter(&mut self, scope: ScopeId) -> ScopeId {
        std::mem::replace(&mut self.current, scope)
    }

    pub fn leave(&mut self, previous: ScopeId) {
        self.current = previous;
    }

    /// Binds `name` in the current scope.
    pub fn bind(&mut self, name: &[u8], binding: Binding) {
        self.bind_in(self.current, name, binding);
    }

    /// Binds `name` where an assignment expression (`:=`) binds it: the nearest scope that is
    /// no comprehension.
    pub fn bind_walrus(&mut self, name: &[u8]) {
        let mut scope = self.current;
        while let (Some(parent), ScopeKind::Comprehension) = self.scopes[scope as usize] {
            scope = parent;
        }
        self.bind_in(scope, name, Binding::Local);
    }

    pub fn bind_in(&mut self, scope: ScopeId, name: &[u8], binding: Binding) {
        let key = (scope, name_hash(name));
        if self.outer.contains(&key) {
            return;
        }
        // An import is what resolution needs to see: it wins over a fallback assignment of the
        // same name (`try: from m import f` / `except ImportError: f = None`); a definition
        // wins over a value (`def f(): …` then `f = wraps(f)(g)` is still a known callable).
        self.clock += 1;
        let (slot, _) = self.bound.entry(key).or_insert((binding, self.clock));
        let rank = |b: Binding| match b {
            Binding::Import => 2,
            Binding::Definition => 1,
            _ => 0,
        };
        if rank(binding) > rank(*slot) {
            *slot = binding;
        }
    }

    /// Binds `name` in the current scope as a local holding a value of the type `ty` (a bare
    /// type name the file spells: `m := &MockClient{}`), so that a member reached through it
    /// is known to be that type's ([`crate::FileIndex::head_types`]). A name bound before in the
    /// scope keeps what it was bound to first.
    pub fn bind_typed(&mut self, name: &[u8], ty: &str) {
        let key = (self.current, name_hash(name));
        let fresh = !self.bound.contains_key(&key);
        self.bind(name, Binding::Local);
        if fresh && self.bound.get(&key).is_some_and(|&(b, _)| b == Binding::Local) {
            self.types.insert(key, ty.to_owned());
        }
    }

    /// `global name` / `nonlocal name` in the current scope.
    pub fn declare_outer(&mut self, name: &[u8]) {
        self.outer.insert((self.current, name_hash(name)));
    }

    /// The use at `index` has `head` as its first name, looked up from the current scope.
    pub fn record(&mut self, index: usize, head: &[u8]) {
        self.clock += 1;
        self.pending.push((index as u32, self.current, name_hash(head), self.clock));
    }

    /// Decides the binding of every recorded use.
    pub fn finish(self, uses: &mut [Use]) {
        self.finish_typed(uses);
    }

    /// Decides the binding of every recorded use, and gives the types of the heads bound to
    /// typed locals ([`Scopes::bind_typed`]) by use index, ascending.
    pub fn finish_typed(self, uses: &mut [Use]) -> Vec<(u32, String)> {
        let mut typed = Vec::new();
        for &(index, scope, hash, at) in &self.pending {
            if let Some(u) = uses.get_mut(index as usize) {
                let (binding, found) = self.lookup(scope, hash, at);
                u.binding = binding;
                if let Some(ty) = found.filter(|_| binding == Binding::Local).and_then(|key| self.types.get(&key)) {
                    typed.push((index, ty.clone()));
                }
            }
        }
        typed.sort();
        typed
    }

    /// A use's binding, and the scope and name it was found bound in.
    fn lookup(&self, from: ScopeId, hash: u64, at: u32) -> (Binding, Option<(ScopeId, u64)>) {
        let mut scope = from;
        // Whether the lookup has left a sealed block: values bound past it are out of reach.
        let mut sealed = false;
        loop {
            let (parent, kind) = self.scopes[scope as usize];
            // A class body's names are seen from the body, not from the functions inside it.
            let visible = kind != ScopeKind::Class || scope == from;
            if visible && let Some(&(binding, since)) = self.bound.get(&(scope, hash)) {
                // A block's name is bound from its declaration on.
                let declared = match kind {
                    ScopeKind::Block => since < at,
                    ScopeKind::OpenBlock | ScopeKind::SealedBlock => binding != Binding::Local || since < at,
                    _ => true,
                };
                if declared && !(sealed && binding == Binding::Local) {
                    return (binding, Some((scope, hash)));
                }
            }
            sealed |= kind == ScopeKind::SealedBlock;
            // A module sees none of the names around it (Rust's inline `mod x { … }`).
            if kind == ScopeKind::Module {
                return (Binding::Free, None);
            }
            match parent {
                Some(p) => scope = p,
                None => return (Binding::Free, None),
            }
        }
    }
}

/// The keys are hashes already: mixing them once more is all a table needs.
#[derive(Default)]
pub struct KeyHasher(u64);

type KeyHash = BuildHasherDefault<KeyHasher>;

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Span, UseKind};

    fn use_(name: &str) -> Use {
        Use { name: name.into(), kind: UseKind::Name, span: Span::default(), qualifier: None, binding: Binding::Free }
    }

    #[test]
    fn class_names_are_invisible_from_methods() {
        let mut s = Scopes::new();
        let class = s.open(ScopeKind::Class);
        let outer = s.enter(class);
        s.bind(b"x", Binding::Local);
        s.record(0, b"x");
        let method = s.open(ScopeKind::Function);
        let in_class = s.enter(method);
        s.record(1, b"x");
        s.leave(in_class);
        s.leave(outer);
        let mut uses = vec![use_("x"), use_("x")];
        s.finish(&mut uses);
        assert_eq!(uses[0].binding, Binding::Local);
        assert_eq!(uses[1].binding, Binding::Free);
    }

    /// `m := &Mock{}` in a block: the uses of `m` after it carry `Mock`; one before it (the
    /// `m` around the block) and one of a local shadowing it in a nested block carry nothing.
    #[test]
    fn a_typed_local_gives_its_uses_its_type() {
        let mut s = Scopes::new();
        s.bind(b"m", Binding::Local);
        let block = s.open(ScopeKind::Block);
        let outer = s.enter(block);
        s.record(0, b"m");
        s.bind_typed(b"m", "Mock");
        s.record(1, b"m");
        let nested = s.open(ScopeKind::Block);
        let in_block = s.enter(nested);
        s.bind(b"m", Binding::Local);
        s.record(2, b"m");
        s.leave(in_block);
        s.record(3, b"m");
        s.leave(outer);
        let mut uses = vec![use_("m"), use_("m"), use_("m"), use_("m")];
        let typed = s.finish_typed(&mut uses);
        assert_eq!(typed, [(1, "Mock".to_owned()), (3, "Mock".to_owned())]);
        assert!(uses.iter().all(|u| u.binding == Binding::Local));
    }

    #[test]
    fn global_names_are_bound_outside() {
        let mut s = Scopes::new();
        s.bind(b"f", Binding::Import);
        let function = s.open(ScopeKind::Function);
        let outer = s.enter(function);
        s.declare_outer(b"f");
        s.bind(b"f", Binding::Local);
        s.record(0, b"f");
        s.leave(outer);
        let mut uses = vec![use_("f")];
        s.finish(&mut uses);
        assert_eq!(uses[0].binding, Binding::Import);
    }

    #[test]
    fn a_block_binds_a_name_from_its_declaration_on() {
        let mut s = Scopes::new();
        s.bind(b"info", Binding::Import);
        let block = s.open(ScopeKind::Block);
        let outer = s.enter(block);
        s.record(0, b"info");
        s.bind(b"info", Binding::Local);
        s.record(1, b"info");
        let nested = s.open(ScopeKind::Block);
        let in_block = s.enter(nested);
        s.record(2, b"info");
        s.leave(in_block);
        s.leave(outer);
        let mut uses = vec![use_("info"), use_("info"), use_("info")];
        s.finish(&mut uses);
        let bindings: Vec<Binding> = uses.iter().map(|u| u.binding).collect();
        assert_eq!(bindings, [Binding::Import, Binding::Local, Binding::Local]);
    }

    #[test]
    fn walrus_in_a_comprehension_binds_in_the_function() {
        let mut s = Scopes::new();
        let function = s.open(ScopeKind::Function);
        let outer = s.enter(function);
        let comprehension = s.open(ScopeKind::Comprehension);
        let in_function = s.enter(comprehension);
        s.bind_walrus(b"y");
        s.leave(in_function);
        s.record(0, b"y");
        s.leave(outer);
        let mut uses = vec![use_("y")];
        s.finish(&mut uses);
        assert_eq!(uses[0].binding, Binding::Local);
    }
}
