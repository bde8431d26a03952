//! Ties a use to the module of a definition through the using file's imports.
//!
//! This is deliberately shallow — no type inference, no scopes — because DefUse matches by
//! simple name anyway; resolution only grades the evidence (`import` vs `name`).

use hintlens_syntax::{Import, Use, UseKind};

/// What a using file knows about its own names.
pub(crate) struct UseContext<'a> {
    pub path: &'a str,
    /// The using file's module name, for Python relative imports.
    pub module: &'a str,
    pub imports: &'a [Import],
}

/// Whether `u` reaches the definition `def_qname` through an import of the defining module.
pub(crate) fn resolves_by_import(ctx: &UseContext<'_>, u: &Use, def_qname: &str, def_module: &str) -> bool {
    match u.kind {
        UseKind::Import => {
            let Some(module) = &u.qualifier else { return false };
            let target = join(&absolute(ctx, module), &u.name);
            dotted_eq(&target, def_qname)
        }
        UseKind::ImportModule => ctx.imports.iter().filter(|i| i.line == u.span.start.line).any(|i| {
            let module = absolute(ctx, &i.module);
            // The module path up to and including this component: `a.b` for `b` in `import a.b.c`.
            let mut prefix = String::new();
            for part in module.split('.').filter(|p| !p.is_empty()) {
                if !prefix.is_empty() {
                    prefix.push('.');
                }
                prefix.push_str(part);
                if part == u.name {
                    return dotted_eq(&prefix, def_module);
                }
            }
            false
        }),
        _ => {
            let (head, rest) = match &u.qualifier {
                Some(q) => match q.split_once('.') {
                    Some((head, rest)) => (head, Some(rest)),
                    None => (q.as_str(), None),
                },
                // A bare name is resolved by an import that binds exactly that name.
                None => (u.name.as_str(), None),
            };
            let Some(import) = ctx.imports.iter().find(|i| i.bound_name() == Some(head)) else {
                return false;
            };
            let mut target = absolute(ctx, &import.module);
            match (&import.name, &import.alias) {
                (Some(name), _) => target = join(&target, name),
                // `import a.b.c` binds `a`, the top package, not `a.b.c`.
                (None, None) => target = target.split('.').next().unwrap_or_default().to_owned(),
                (None, Some(_)) => {}
            }
            if let Some(rest) = rest {
                target = join(&target, rest);
            }
            if u.qualifier.is_some() {
                target = join(&target, &u.name);
            }
            dotted_eq(&target, def_qname)
        }
    }
}

/// Resolves Python's leading dots against the using file's package.
fn absolute(ctx: &UseContext<'_>, module: &str) -> String {
    let dots = module.len() - module.trim_start_matches('.').len();
    if dots == 0 {
        return module.to_owned();
    }
    // A file whose module name is not its own stem is its package (`pkg/__init__.py` is `pkg`):
    // there a leading dot means the package itself, elsewhere the file's siblings.
    let stem = ctx.path.rsplit('/').next().unwrap_or(ctx.path).split('.').next().unwrap_or_default();
    let is_package = ctx.module.rsplit('.').next() != Some(stem);
    let mut base: Vec<&str> = ctx.module.split('.').collect();
    // `.x` in a plain module means a sibling: drop the module's own name first.
    let drop = if is_package { dots - 1 } else { dots };
    for _ in 0..drop {
        base.pop();
    }
    let rest = &module[dots..];
    let mut out = base.join(".");
    if !rest.is_empty() {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(rest);
    }
    out
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() { b.to_owned() } else { format!("{a}.{b}") }
}

/// Dotted names equal up to a leading package prefix on either side, so that `pkg.mod.f`
/// (from an import) matches `src.pkg.mod.f` (from a path under `src/`).
pub(crate) fn dotted_eq(a: &str, b: &str) -> bool {
    fn ends_with_component(long: &str, short: &str) -> bool {
        long.len() > short.len() && long.ends_with(short) && long.as_bytes()[long.len() - short.len() - 1] == b'.'
    }
    !a.is_empty() && !b.is_empty() && (a == b || ends_with_component(a, b) || ends_with_component(b, a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hintlens_syntax::Span;

    fn imp(module: &str, name: Option<&str>, alias: Option<&str>, line: u32) -> Import {
        Import {
            module: module.into(),
            name: name.map(Into::into),
            alias: alias.map(Into::into),
            wildcard: false,
            line,
        }
    }

    fn use_(name: &str, kind: UseKind, qualifier: Option<&str>, line: u32) -> Use {
        let mut span = Span::default();
        span.start.line = line;
        Use { name: name.into(), kind, span, qualifier: qualifier.map(Into::into), binding: Default::default() }
    }

    #[test]
    fn dotted_eq_allows_a_package_prefix() {
        assert!(dotted_eq("pkg.mod.f", "pkg.mod.f"));
        assert!(dotted_eq("pkg.mod.f", "src.pkg.mod.f"));
        assert!(!dotted_eq("pkg.mod.f", "xpkg.mod.f"));
        assert!(!dotted_eq("pkg.mod.f", "pkg.mod.g"));
    }

    #[test]
    fn from_import_and_alias_resolve() {
        let imports = [imp("pkg.api", Some("new_fn"), Some("f"), 0), imp("pkg", Some("api"), None, 1)];
        let ctx = UseContext { path: "tests/test_api.py", module: "tests.test_api", imports: &imports };
        assert!(resolves_by_import(
            &ctx,
            &use_("new_fn", UseKind::Import, Some("pkg.api"), 0),
            "pkg.api.new_fn",
            "pkg.api"
        ));
        assert!(resolves_by_import(&ctx, &use_("new_fn", UseKind::Call, Some("api"), 5), "pkg.api.new_fn", "pkg.api"));
        assert!(!resolves_by_import(
            &ctx,
            &use_("new_fn", UseKind::Call, Some("other"), 5),
            "pkg.api.new_fn",
            "pkg.api"
        ));
        assert!(!resolves_by_import(&ctx, &use_("new_fn", UseKind::Call, None, 5), "pkg.api.new_fn", "pkg.api"));
    }

    #[test]
    fn relative_imports_resolve_against_the_package() {
        let imports = [imp(".helpers", Some("make"), None, 0)];
        let ctx = UseContext { path: "pkg/tests/test_x.py", module: "pkg.tests.test_x", imports: &imports };
        assert!(resolves_by_import(
            &ctx,
            &use_("make", UseKind::Import, Some(".helpers"), 0),
            "pkg.tests.helpers.make",
            "pkg.tests.helpers"
        ));
        let init = UseContext { path: "pkg/__init__.py", module: "pkg", imports: &imports };
        assert_eq!(absolute(&init, ".helpers"), "pkg.helpers");
        assert_eq!(absolute(&ctx, "..core"), "pkg.core");
    }

    #[test]
    fn plain_import_binds_the_top_package() {
        let imports = [imp("pkg.codecs", None, None, 0), imp("pkg.other", None, Some("o"), 1)];
        let ctx = UseContext { path: "t.py", module: "t", imports: &imports };
        assert!(resolves_by_import(
            &ctx,
            &use_("encode", UseKind::Call, Some("pkg.codecs"), 4),
            "pkg.codecs.encode",
            "pkg.codecs"
        ));
        assert!(resolves_by_import(&ctx, &use_("f", UseKind::Call, Some("o"), 4), "pkg.other.f", "pkg.other"));
    }

    #[test]
    fn import_module_components_resolve_to_files() {
        let imports = [imp("pkg.newmod", None, None, 2)];
        let ctx = UseContext { path: "t.py", module: "t", imports: &imports };
        assert!(resolves_by_import(&ctx, &use_("newmod", UseKind::ImportModule, None, 2), "pkg.newmod", "pkg.newmod"));
        assert!(!resolves_by_import(&ctx, &use_("pkg", UseKind::ImportModule, None, 2), "pkg.newmod", "pkg.newmod"));
    }

    #[test]
    fn java_static_members_resolve_through_the_class_import() {
        let imports = [imp("com.x", Some("Foo"), None, 1)];
        let ctx = UseContext { path: "FooTest.java", module: "com.y.FooTest", imports: &imports };
        assert!(resolves_by_import(&ctx, &use_("bar", UseKind::Call, Some("Foo"), 7), "com.x.Foo.bar", "com.x.Foo"));
        assert!(resolves_by_import(&ctx, &use_("Foo", UseKind::Import, Some("com.x"), 1), "com.x.Foo", "com.x.Foo"));
    }
}
