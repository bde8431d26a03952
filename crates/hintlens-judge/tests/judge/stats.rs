//! Table 8 on fixtures whose answer is known in advance.

use hintlens_judge::prompts::{Attribute, Call};
use hintlens_judge::{Bootstrap, Judged, Status, table8};
use serde_json::json;

/// One answered sample: `levels` is [N] for necessity, [D, G] otherwise; `None` is unparsable.
fn judged(instance: &str, entry: &str, attribute: Attribute, call: Call, sample: u32, levels: Option<&[u8]>) -> Judged {
    let (n, d, g) = match (call, levels) {
        (_, None) => (None, None, None),
        (Call::Necessity, Some(l)) => (Some(l[0]), None, None),
        (Call::DisclosureGuidance, Some(l)) => (None, Some(l[0]), Some(l[1])),
    };
    Judged {
        id: format!("{instance}::{entry}::{attribute}::{}::{sample}", call.as_str()),
        instance_id: instance.into(),
        identifier: entry.into(),
        entry: entry.into(),
        attribute,
        call,
        sample,
        status: if levels.is_some() { Status::Ok } else { Status::Unparsable },
        n,
        necessity_label: None,
        d,
        disclosure_label: None,
        g,
        guidance_label: None,
        evidence: None,
        rationale: None,
        confidence: None,
        error: levels.is_none().then(|| "unreadable".into()),
        content: None,
    }
}

/// Three samples of both calls for one identifier: N levels, then (D, G) levels.
fn identifier(instance: &str, entry: &str, attribute: Attribute, n: [u8; 3], dg: [(u8, u8); 3]) -> Vec<Judged> {
    let mut out = Vec::new();
    for s in 0..3 {
        out.push(judged(instance, entry, attribute, Call::Necessity, s as u32, Some(&[n[s]])));
        out.push(judged(instance, entry, attribute, Call::DisclosureGuidance, s as u32, Some(&[dg[s].0, dg[s].1])));
    }
    out
}

const BOOTSTRAP: Bootstrap = Bootstrap { resamples: 10_000, seed: 7 };

#[test]
fn medians_of_three_then_means_with_intervals_over_instances() {
    let mut records = identifier("a", "f", Attribute::Name, [3, 3, 2], [(0, 0), (0, 0), (0, 1)]);
    records.extend(identifier("b", "g", Attribute::Name, [1, 1, 1], [(0, 0), (1, 0), (0, 0)]));
    let table = table8(&records, BOOTSTRAP);
    assert_eq!((table.instances, table.unparsable), (2, 0));
    let row = &table.attributes[0];
    assert_eq!((row.attribute, row.identifiers), (Attribute::Name, 2));
    // Medians: a → N 3, D 0, G 0, HVM 3; b → N 1, D 0, G 0, HVM 1.
    assert_eq!(row.n.mean, Some(2.0));
    assert_eq!((row.d.mean, row.g.mean), (Some(0.0), Some(0.0)));
    assert_eq!(row.hvm.mean, Some(2.0));
    // Resampling two instances gives 1, 2 or 3 (a quarter, half, a quarter of the time): the
    // 95% interval spans them; D never moves.
    assert_eq!(row.hvm.ci, Some([1.0, 3.0]));
    assert_eq!(row.n.ci, Some([1.0, 3.0]));
    assert_eq!(row.d.ci, Some([0.0, 0.0]));
    assert!(!row.hvm.indistinguishable_from_zero());
    // One identifier of two has unanimous samples on each scale.
    assert_eq!((row.unanimity.n, row.unanimity.d, row.unanimity.g), (Some(0.5), Some(0.5), Some(0.5)));
}

#[test]
fn the_bootstrap_resamples_instances_not_identifiers() {
    // Instance a: three identifiers of HVM 3; instance b: one of HVM −1. Pooled mean 2.
    let mut records = Vec::new();
    for f in ["f1", "f2", "f3"] {
        records.extend(identifier("a", f, Attribute::Path, [3; 3], [(0, 0); 3]));
    }
    records.extend(identifier("b", "g", Attribute::Path, [0; 3], [(1, 0); 3]));
    let table = table8(&records, BOOTSTRAP);
    let row = &table.attributes[0];
    assert_eq!((row.identifiers, row.hvm.mean), (4, Some(2.0)));
    // Two clusters: a resample is {a, a} (3), {a, b} (2) or {b, b} (−1). Resampling the four
    // identifiers instead would almost never reach −1.
    assert_eq!(row.hvm.ci, Some([-1.0, 3.0]));
    assert!(row.hvm.indistinguishable_from_zero(), "the interval contains zero: ∗");
    assert!(table.markdown(BOOTSTRAP).contains("| path | 4 | 2.25 [0.00, 3.00] | 0.25 [0.00, 1.00] | 0.00 [0.00, 0.00] | 2.00 [-1.00, 3.00] ∗ | 100% | 100% | 100% |"), "{}", table.markdown(BOOTSTRAP));
}

#[test]
fn unparsable_samples_are_counted_and_left_out() {
    let mut records = identifier("a", "f", Attribute::Signature, [3, 2, 2], [(0, 0); 3]);
    // Necessity sample 0 (the 3) could not be read: the median is of the two left.
    records[0] = judged("a", "f", Attribute::Signature, Call::Necessity, 0, None);
    // An identifier whose disclosure/guidance answers were all unreadable is not judged.
    records.push(judged("a", "h", Attribute::Signature, Call::Necessity, 0, Some(&[3])));
    for s in 0..3 {
        records.push(judged("a", "h", Attribute::Signature, Call::DisclosureGuidance, s, None));
    }
    let table = table8(&records, BOOTSTRAP);
    assert_eq!(table.unparsable, 4);
    let row = &table.attributes[0];
    assert_eq!(row.identifiers, 1);
    assert_eq!(row.n.mean, Some(2.0));
    // Unanimity counts identifiers whose every sample was read: f's N had one unread.
    assert_eq!(row.unanimity.n, None);
    assert_eq!(row.unanimity.d, Some(1.0));
}

#[test]
fn the_json_form_and_reproducibility() {
    let mut records = Vec::new();
    let levels = [[3, 3, 3], [1, 3, 1], [0, 0, 1], [2, 2, 2], [3, 1, 3], [1, 1, 1]];
    for (i, n) in levels.iter().enumerate() {
        let instance = format!("i{}", i % 4);
        records.extend(identifier(&instance, &format!("f{i}"), Attribute::Name, *n, [(0, 0), (0, 1), (0, 0)]));
        records.extend(identifier(
            &instance,
            &format!("f{i}"),
            Attribute::WeakSemantics,
            [0; 3],
            [(1, 1), (2, 1), (n[0].min(2), 2)],
        ));
    }
    let table = table8(&records, BOOTSTRAP);
    // The shape outside scripts read, in this order.
    let text = serde_json::to_string(&table).unwrap();
    assert!(text.starts_with(r#"{"attributes":[{"attribute":"name","identifiers":6,"N":{"mean":"#), "{text}");
    assert!(text.contains(r#","unanimity":{"N":"#) && text.ends_with(r#"}}],"instances":4,"unparsable":0}"#), "{text}");
    let value = serde_json::to_value(&table).unwrap();
    let row = &value["attributes"][0];
    for key in ["N", "D", "G", "HVM"] {
        let keys: Vec<&str> = row[key].as_object().unwrap().keys().map(String::as_str).collect();
        // The order of the JSON text (serde_json keeps field order: `preserve_order`).
        assert_eq!(keys, ["mean", "ci"]);
    }
    assert_eq!(row["attribute"], "name");
    assert!(row["HVM"]["ci"].as_array().unwrap().len() == 2);
    assert_eq!(value["instances"], json!(4));
    // The same seed gives the same table; the numbers are pinned.
    assert_eq!(table8(&records, BOOTSTRAP), table);
    insta::assert_snapshot!("seeded_table", serde_json::to_string_pretty(&table).unwrap());
    insta::assert_snapshot!("seeded_table_markdown", table.markdown(BOOTSTRAP));
    insta::assert_snapshot!("seeded_table_svg", table.svg());
}
