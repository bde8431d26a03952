//! Where the test change touches a name: the evidence policies other than DefUse attach to
//! what they select, so a reader sees which of their identifiers the tests actually use.

use crate::newdefs::changed_files;
use crate::{Evidence, Identifier, Task};
use hintlens_db::Db;
use std::collections::HashMap;

/// Uses on the lines the test change adds, by simple name.
pub(crate) struct TestUses {
    by_name: HashMap<String, Vec<Evidence>>,
}

impl TestUses {
    pub fn of(db: &dyn Db, task: &Task<'_>) -> TestUses {
        let mut by_name: HashMap<String, Vec<Evidence>> = HashMap::new();
        for changed in changed_files(db, task, task.test) {
            for u in changed.index(db).uses.iter().filter(|u| changed.added.contains(u.span.start.line)) {
                by_name.entry(u.name.clone()).or_default().push(Evidence {
                    path: changed.path.to_owned(),
                    line: u.span.start.line + 1,
                    rule: None,
                });
            }
        }
        for sites in by_name.values_mut() {
            sites.sort();
            sites.dedup();
        }
        TestUses { by_name }
    }

    /// Sets each identifier's evidence to the test lines that use its name.
    pub fn attach(&self, ids: &mut [Identifier]) {
        for id in ids {
            id.evidence = self.by_name.get(&id.name).cloned().unwrap_or_default();
        }
    }
}
