//! Table 8: per attribute, the identifiers judged, N, D, G and HVM = N − max(D, G) with 95%
//! intervals by an instance-clustered bootstrap, and three-sample unanimity per scale.
//!
//! Per (instance, identifier, attribute) pair each scale's score is the median of its parsed
//! samples (the middle one of three; the mean of the middle two of an even number); HVM is the
//! pair's N − max(D, G). A pair counts when it has at least one parsed necessity sample and one
//! parsed disclosure/guidance sample, and every mean is over the same pairs. The interval
//! resamples the attribute's instances with replacement and takes the pooled mean of their
//! pairs; its ends are the 2.5th and 97.5th percentiles of the resampled means (linear
//! interpolation). Unanimity is the share of pairs whose samples all parsed and all agree,
//! among pairs whose every sample parsed.

use crate::import::{Judged, Status};
use crate::prompts::{Attribute, Call};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A mean and its 95% interval; both absent when nothing was judged.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: Option<f64>,
    pub ci: Option<[f64; 2]>,
}

impl Estimate {
    /// The interval contains zero: the paper's `∗`.
    pub fn indistinguishable_from_zero(&self) -> bool {
        self.ci.is_some_and(|[lo, hi]| lo <= 0.0 && 0.0 <= hi)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Unanimity {
    #[serde(rename = "N")]
    pub n: Option<f64>,
    #[serde(rename = "D")]
    pub d: Option<f64>,
    #[serde(rename = "G")]
    pub g: Option<f64>,
}

/// One row of Table 8.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeRow {
    pub attribute: Attribute,
    /// (instance, identifier) pairs judged on this attribute.
    pub identifiers: usize,
    #[serde(rename = "N")]
    pub n: Estimate,
    #[serde(rename = "D")]
    pub d: Estimate,
    #[serde(rename = "G")]
    pub g: Estimate,
    #[serde(rename = "HVM")]
    pub hvm: Estimate,
    pub unanimity: Unanimity,
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table8 {
    pub attributes: Vec<AttributeRow>,
    /// Instances with at least one pair judged.
    pub instances: usize,
    /// Answers that could not be read.
    pub unparsable: usize,
}

/// How the intervals are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bootstrap {
    pub resamples: usize,
    pub seed: u64,
}

/// The answers to one (instance, identifier, attribute) pair, per scale: what both Table 8
/// and the review's per-identifier scores are computed from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    pub n: Vec<u8>,
    pub d: Vec<u8>,
    pub g: Vec<u8>,
    /// Answers that could not be read; they are in no scale.
    pub unparsable: usize,
}

impl Samples {
    /// Adds one judged answer to its scales.
    pub fn add(&mut self, j: &Judged) {
        if j.status == Status::Unparsable {
            self.unparsable += 1;
            return;
        }
        match j.call {
            Call::Necessity => self.n.extend(j.n),
            Call::DisclosureGuidance => {
                // Both labels parse or the answer is unparsable: a D without its G never counts.
                if let (Some(d), Some(g)) = (j.d, j.g) {
                    self.d.push(d);
                    self.g.push(g);
                }
            }
        }
    }

    /// The median of each scale, and HVM = N − max(D, G) when all three have one.
    pub fn medians(&self) -> Medians {
        let (n, d, g) = (median(&self.n), median(&self.d), median(&self.g));
        let hvm = match (n, d, g) {
            (Some(n), Some(d), Some(g)) => Some(n - d.max(g)),
            _ => None,
        };
        Medians { n, d, g, hvm }
    }
}

/// One pair's scores: each scale's median and HVM; absent where no sample parsed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Medians {
    #[serde(rename = "N")]
    pub n: Option<f64>,
    #[serde(rename = "D")]
    pub d: Option<f64>,
    #[serde(rename = "G")]
    pub g: Option<f64>,
    #[serde(rename = "HVM")]
    pub hvm: Option<f64>,
}

/// One judged pair's scores, every scale present.
#[derive(Debug, Clone, Copy)]
struct Scores {
    n: f64,
    d: f64,
    g: f64,
    hvm: f64,
}

/// The median (the mean of the middle two for an even count).
pub fn median(values: &[u8]) -> Option<f64> {
    let mut v: Vec<u8> = values.to_vec();
    v.sort_unstable();
    let m = v.len() / 2;
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(f64::from(v[m])),
        _ => Some((f64::from(v[m - 1]) + f64::from(v[m])) / 2.0),
    }
}

/// The `p` quantile (0–1) of sorted values, linearly interpolated.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Computes Table 8 from judged records.
pub fn table8(judged: &[Judged], bootstrap: Bootstrap) -> Table8 {
    // attribute → instance → entry → samples.
    let mut by_attribute: BTreeMap<Attribute, BTreeMap<&str, BTreeMap<&str, Samples>>> = BTreeMap::new();
    // The samples a call was asked for: one more than the highest sample index seen.
    let mut asked: BTreeMap<Call, u32> = BTreeMap::new();
    for j in judged {
        let wanted = asked.entry(j.call).or_default();
        *wanted = (*wanted).max(j.sample + 1);
        by_attribute
            .entry(j.attribute)
            .or_default()
            .entry(j.instance_id.as_str())
            .or_default()
            .entry(j.entry.as_str())
            .or_default()
            .add(j);
    }
    let unparsable =
        by_attribute.values().flat_map(BTreeMap::values).flat_map(BTreeMap::values).map(|s| s.unparsable).sum();
    let full_n = asked.get(&Call::Necessity).copied().unwrap_or(0) as usize;
    let full_dg = asked.get(&Call::DisclosureGuidance).copied().unwrap_or(0) as usize;
    let mut instances = BTreeSet::new();
    let mut rows = Vec::new();
    for (attribute, by_instance) in &by_attribute {
        let mut clusters: Vec<Vec<Scores>> = Vec::new();
        let mut unanimous = [(0usize, 0usize); 3];
        for (instance, entries) in by_instance {
            let mut cluster = Vec::new();
            for samples in entries.values() {
                for (k, (values, full)) in
                    [(&samples.n, full_n), (&samples.d, full_dg), (&samples.g, full_dg)].into_iter().enumerate()
                {
                    if full > 0 && values.len() == full {
                        unanimous[k].1 += 1;
                        if values.iter().all(|v| *v == values[0]) {
                            unanimous[k].0 += 1;
                        }
                    }
                }
                let Medians { n: Some(n), d: Some(d), g: Some(g), hvm: Some(hvm) } = samples.medians() else {
                    continue;
                };
                cluster.push(Scores { n, d, g, hvm });
            }
            if !cluster.is_empty() {
                instances.insert(*instance);
                clusters.push(cluster);
            }
        }
        // Each attribute draws from a stream of its own, so a row does not depend on which
        // other attributes were judged.
        let index = Attribute::ALL.iter().position(|a| a == attribute).unwrap_or_default() as u64;
        let seed = bootstrap.seed.wrapping_add((index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let estimates = estimate(&clusters, bootstrap.resamples, seed);
        let share = |(yes, of): (usize, usize)| (of > 0).then(|| yes as f64 / of as f64);
        rows.push(AttributeRow {
            attribute: *attribute,
            identifiers: clusters.iter().map(Vec::len).sum(),
            n: estimates[0],
            d: estimates[1],
            g: estimates[2],
            hvm: estimates[3],
            unanimity: Unanimity { n: share(unanimous[0]), d: share(unanimous[1]), g: share(unanimous[2]) },
        });
    }
    Table8 { attributes: rows, instances: instances.len(), unparsable }
}

/// Means of N, D, G and HVM over every pair of every cluster, with percentile intervals from
/// `resamples` cluster resamples.
fn estimate(clusters: &[Vec<Scores>], resamples: usize, seed: u64) -> [Estimate; 4] {
    let none = Estimate { mean: None, ci: None };
    if clusters.is_empty() {
        return [none; 4];
    }
    // Per cluster: the sums of the four scores and the pair count.
    let sums: Vec<([f64; 4], usize)> = clusters
        .iter()
        .map(|c| {
            let mut s = [0.0; 4];
            for p in c {
                for (acc, v) in s.iter_mut().zip([p.n, p.d, p.g, p.hvm]) {
                    *acc += v;
                }
            }
            (s, c.len())
        })
        .collect();
    let pooled = |picks: &mut dyn Iterator<Item = usize>| {
        let (mut s, mut count) = ([0.0; 4], 0);
        for i in picks {
            for (acc, v) in s.iter_mut().zip(sums[i].0) {
                *acc += v;
            }
            count += sums[i].1;
        }
        s.map(|v| v / count as f64)
    };
    let means = pooled(&mut (0..sums.len()));
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut replicates: [Vec<f64>; 4] = Default::default();
    for _ in 0..resamples {
        let m = pooled(&mut (0..sums.len()).map(|_| rng.usize(..sums.len())));
        for (r, v) in replicates.iter_mut().zip(m) {
            r.push(v);
        }
    }
    let mut out = [none; 4];
    for (k, r) in replicates.iter_mut().enumerate() {
        r.sort_by(f64::total_cmp);
        out[k] =
            Estimate { mean: Some(means[k]), ci: (!r.is_empty()).then(|| [quantile(r, 0.025), quantile(r, 0.975)]) };
    }
    out
}

impl Table8 {
    /// The table as the paper prints it, with the method in a note below.
    pub fn markdown(&self, bootstrap: Bootstrap) -> String {
        let mut out = String::from(
            "| attribute | identifiers | N | D | G | HVM | unanimity N | unanimity D | unanimity G |\n|---|---:|---|---|---|---|---:|---:|---:|\n",
        );
        let cell = |e: &Estimate| match (e.mean, e.ci) {
            (Some(m), Some([lo, hi])) => format!("{m:.2} [{lo:.2}, {hi:.2}]"),
            (Some(m), None) => format!("{m:.2}"),
            _ => "–".into(),
        };
        let share = |u: Option<f64>| u.map_or("–".into(), |u| format!("{:.0}%", u * 100.0));
        for row in &self.attributes {
            let star = if row.hvm.indistinguishable_from_zero() { " ∗" } else { "" };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {}{star} | {} | {} | {} |",
                row.attribute,
                row.identifiers,
                cell(&row.n),
                cell(&row.d),
                cell(&row.g),
                cell(&row.hvm),
                share(row.unanimity.n),
                share(row.unanimity.d),
                share(row.unanimity.g),
            );
        }
        let _ = write!(
            out,
            "\nN necessity, D disclosure, G guidance (0–3; the median of each identifier's samples, then the mean over identifiers); HVM = N − max(D, G). \
             [95% interval: bootstrap over instances, {} resamples, seed {}]; ∗ HVM's interval contains zero. \
             Unanimity: identifiers whose samples all agree. {} instances; {} unparsable answers.\n",
            bootstrap.resamples, bootstrap.seed, self.instances, self.unparsable
        );
        out
    }

    /// HVM per attribute with its interval, as an SVG picture.
    pub fn svg(&self) -> String {
        const LEFT: f64 = 170.0;
        const WIDTH: f64 = 400.0;
        const ROW: f64 = 30.0;
        const TOP: f64 = 50.0;
        let x = |v: f64| LEFT + (v + 3.0) / 6.0 * WIDTH;
        let height = TOP + ROW * self.attributes.len() as f64 + 40.0;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"{height}\" viewBox=\"0 0 700 {height}\" font-family=\"sans-serif\" font-size=\"13\">\n\
             <rect width=\"700\" height=\"{height}\" fill=\"white\"/>\n\
             <text x=\"{LEFT}\" y=\"22\" font-size=\"15\">Hint value margin HVM = N − max(D, G), 95% interval</text>\n"
        );
        let bottom = TOP + ROW * self.attributes.len() as f64;
        for tick in -3..=3 {
            let tx = x(f64::from(tick));
            let (stroke, dash) = if tick == 0 { ("#444", " stroke-dasharray=\"4 3\"") } else { ("#ddd", "") };
            let _ = writeln!(
                out,
                "<line x1=\"{tx}\" y1=\"{}\" x2=\"{tx}\" y2=\"{bottom}\" stroke=\"{stroke}\"{dash}/>\n<text x=\"{tx}\" y=\"{}\" text-anchor=\"middle\" fill=\"#444\">{tick}</text>",
                TOP - 10.0,
                bottom + 18.0
            );
        }
        for (i, row) in self.attributes.iter().enumerate() {
            let y = TOP + ROW * i as f64 + ROW / 2.0;
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} ({})</text>",
                LEFT - 10.0,
                y + 4.0,
                row.attribute,
                row.identifiers
            );
            if let Some([lo, hi]) = row.hvm.ci {
                let _ = writeln!(
                    out,
                    "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>",
                    x(lo),
                    x(hi)
                );
            }
            if let Some(m) = row.hvm.mean {
                let star = if row.hvm.indistinguishable_from_zero() { " ∗" } else { "" };
                let _ = writeln!(
                    out,
                    "<circle cx=\"{}\" cy=\"{y}\" r=\"4.5\" fill=\"#1f5fa8\"/>\n<text x=\"{}\" y=\"{}\" fill=\"#222\">{m:.2}{star}</text>",
                    x(m),
                    LEFT + WIDTH + 15.0,
                    y + 4.0
                );
            }
        }
        let _ = writeln!(
            out,
            "<text x=\"{LEFT}\" y=\"{}\" fill=\"#444\">{} instances · {} unparsable answers · ∗ interval contains zero</text>\n</svg>",
            bottom + 36.0,
            self.instances,
            self.unparsable
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_quantiles() {
        assert_eq!(median(&[3, 0, 1]), Some(1.0));
        assert_eq!(median(&[2, 3]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), 3.0);
        assert_eq!(quantile(&[1.0, 2.0], 0.25), 1.25);
        assert_eq!(quantile(&[7.0], 0.975), 7.0);
    }
}
