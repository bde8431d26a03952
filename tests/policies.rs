//! The benchmark policies end to end on scenario tasks: FEA-Bench's released format reproduced
//! byte for byte under `--compat fea`, and every projection of every policy, snapshotted.

use hintlens_hints::{Identifier, TaskFields};
use hintlens_projection::{
    Description, DescriptionProvider, Descriptions, Projection, RenderContext, Want, render_with,
};
use std::collections::BTreeMap;
use std::path::Path;

fn selections(scenario: &str) -> BTreeMap<String, Vec<Identifier>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(scenario);
    let text = std::fs::read_to_string(&path).unwrap();
    let scenario = hintlens_tests::parse_scenario(&text).unwrap();
    hintlens_tests::run(&scenario).unwrap().selections
}

/// What FEA-Bench's own rule (Python `ast`, its `get_wrapped_definitions`) writes for
/// `pkg/service.py` of the scenario: computed with that rule, pasted here.
const FEA_DETAILED: &str = "There are several new functions or classes that need to be implemented, using the definitions below: \n<definitions>\n[start of new definitions in pkg/service.py]\n(definition of Client:)\nclass Client:\n\"\"\"A client of one endpoint; lines are \"\\n\"-separated.\"\"\"\n(definition of Client.__init__:)\ndef __init__(self, url):\n(definition of Client.host:)\ndef host( self, ) -> str:\n(definition of Client.ping:)\n\n[end of new definitions in pkg/service.py]\n\n</definitions>";

#[test]
fn fea_compat_reproduces_fea_bench_byte_for_byte() {
    let all = selections("python/fea_compat_quirks.md");
    let compat = &all["fea --compat fea"];
    let ctx = RenderContext::default();
    assert_eq!(render_with(compat, Projection::FeaDetailed, &ctx), FEA_DETAILED);
    let brief: String = FEA_DETAILED.lines().filter(|l| !l.starts_with("\"\"\"")).collect::<Vec<_>>().join("\n");
    assert_eq!(render_with(compat, Projection::FeaBrief, &ctx), brief);
    // Without the switch: our flattened signatures, and the async method and the `check` file.
    let native = render_with(&all["fea"], Projection::FeaBrief, &ctx);
    assert!(native.contains("(definition of Client.host:)\ndef host(self,) -> str\n"), "{native}");
    assert!(native.contains("(definition of Client.ping:)\ndef ping(self)\n"), "{native}");
    assert!(native.contains("(definition of Client.fetch:)\nasync def fetch(self, path)\n"), "{native}");
    assert!(native.contains("[start of new definitions in pkg/checker.py]\n(definition of validate:)"), "{native}");
}

/// A description provider that answers from the identifier alone, standing in for a command
/// or an endpoint.
struct StandIn;

impl DescriptionProvider for StandIn {
    fn describe(&self, id: &Identifier, _: &TaskFields<'_>, _: &str, want: Want) -> Result<Description, String> {
        Ok(match want {
            Want::Doc => Description { doc: Some(format!("The {} {}.", id.kind, id.name)), behaviour: None },
            Want::Behaviour => {
                Description { doc: None, behaviour: Some(format!("Behaves as `{}` should.\nTwo sentences.", id.name)) }
            }
        })
    }
}

/// Every projection of every policy of a scenario: without context, with SWE-bench Pro's
/// requirements, and with a provider's descriptions.
fn all_renderings(scenario: &str) -> String {
    let mut out = String::new();
    let requirements = "- `parse_duration` must return milliseconds.";
    for (policy, ids) in selections(scenario) {
        let mut descriptions = Descriptions::default();
        for id in &ids {
            for want in [Want::Doc, Want::Behaviour] {
                descriptions.insert(id, StandIn.describe(id, &TaskFields::default(), "", want).unwrap());
            }
        }
        let contexts = [
            ("", RenderContext::default()),
            (" (requirements)", RenderContext { requirements: Some(requirements), descriptions: None }),
            (" (provider)", RenderContext { requirements: Some(requirements), descriptions: Some(&descriptions) }),
        ];
        for projection in Projection::ALL {
            for (label, ctx) in &contexts {
                // Only the text-bearing projections read the context.
                if !label.is_empty() && projection.wants().is_empty() {
                    continue;
                }
                out.push_str(&format!("## {policy}+{projection}{label}\n{}\n", render_with(&ids, projection, ctx)));
            }
        }
    }
    out
}

#[test]
fn every_rendering_of_a_pro_task() {
    insta::assert_snapshot!(all_renderings("python/pro_interface.md"));
}

#[test]
fn every_rendering_of_a_string_contract_task() {
    insta::assert_snapshot!(all_renderings("python/error_message_and_keys.md"));
}

#[test]
fn every_rendering_of_a_java_task() {
    insta::assert_snapshot!(all_renderings("java/new_class_imported.md"));
}
