//! Differential fuzzing against synthetic readers: a strict
//! one (`fake.py none`) and one that ignores trailing bytes (`lenient.py`).

use crate::support::script;
use idx_conformance::cases;
use idx_conformance::differential::{
    self, Budget, ClassKey, Config, Did, Implementation, Reference,
};
use idx_conformance::runner::Adapter;
use std::time::Duration;
use test_support::assert_contains;

fn implementation(name: &str, args: &[&str]) -> Implementation {
    let mut command = vec!["python3".to_string()];
    command.extend(args.iter().map(|a| a.to_string()));
    command.push("--persistent".into());
    Implementation {
        name: name.into(),
        adapter: Adapter {
            command,
            persistent: true,
            timeout: Duration::from_secs(20),
            memory_mib: Some(4096),
            startup: idx_conformance::runner::STARTUP_MIN,
        },
    }
}

fn config(cases: usize, jobs: usize) -> Config {
    Config {
        seed: 7,
        budget: Budget {
            cases: Some(cases),
            time: None,
        },
        jobs,
        implementations: vec![
            implementation("strict", &[&script("fake.py"), "none"]),
            implementation("lenient", &[&script("lenient.py")]),
        ],
        minimise_runs: 200,
    }
}

#[test]
fn a_reader_that_ignores_trailing_bytes_is_one_class_with_a_minimised_reproducer() {
    let o = differential::run(&cases::all(), &config(150, 2)).unwrap();
    assert_eq!(o.inputs, 150);
    let key = ClassKey {
        implementation: "lenient".into(),
        reference: Reference::Invalid("IDX203"),
        did: Did::Accepted,
    };
    let c = o.classes.iter().find(|c| c.key == key).unwrap_or_else(|| {
        panic!(
            "no trailing-bytes class: {:?}",
            o.classes.iter().map(|c| &c.key).collect::<Vec<_>>()
        )
    });
    assert!(c.count > 0);
    // the reproducer is still in the class, and small: rank 0 (or a
    // dimension) and one byte too many
    assert_eq!(differential::reference(&c.reproducer).0, key.reference);
    assert!(
        c.reproducer.len() <= 10,
        "{:02x?} {} {:?}",
        c.reproducer,
        c.detail,
        c.mutations
    );
    // the corpus already shows it
    assert!(
        c.explained_by
            .iter()
            .any(|id| id == "invalid-trailing-byte"),
        "{:?}",
        c.explained_by
    );
    // the strict reader disagrees only where the spec leaves it free (gzip,
    // warnings), never on a normative input
    for c in o
        .classes
        .iter()
        .filter(|c| c.key.implementation == "strict")
    {
        assert!(!c.key.reference.is_normative(), "{:?}: {}", c.key, c.detail);
    }
    // and the lenient one nowhere else on normative inputs
    for c in o
        .classes
        .iter()
        .filter(|c| c.key.implementation == "lenient" && c.key.reference.is_normative())
    {
        assert_eq!(c.key, key, "{}", c.detail);
    }
    let md = differential::render(&o, &config(150, 2), &[]);
    assert_contains(&md, &format!("### {}", differential::key_line(&key)));
    assert!(differential::new_classes(&o, &md).is_empty());
    let new = differential::new_classes(&o, "");
    assert!(new
        .iter()
        .any(|(k, normative)| *normative && *k == differential::key_line(&key)));
}

#[test]
fn the_same_seed_gives_the_same_classes_and_reproducers_whatever_the_jobs() {
    let a = differential::run(&cases::all(), &config(60, 1)).unwrap();
    let b = differential::run(&cases::all(), &config(60, 3)).unwrap();
    let summary = |o: &differential::Outcome| {
        o.classes
            .iter()
            .map(|c| (c.key.clone(), c.count, c.first, c.reproducer.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(summary(&a), summary(&b));
    assert_eq!(a.agreed, b.agreed);
    // and the inputs themselves depend on the seed and index only
    let seeds: Vec<_> = cases::all();
    let seeds: Vec<_> = seeds.iter().filter(|c| c.options.is_empty()).collect();
    assert_eq!(
        differential::input(&seeds, 7, 5),
        differential::input(&seeds, 7, 5)
    );
    assert_ne!(
        differential::input(&seeds, 7, 5).0,
        differential::input(&seeds, 8, 5).0
    );
}

#[test]
fn mutations_reach_every_kind() {
    let all = cases::all();
    let seeds: Vec<_> = all.iter().filter(|c| c.options.is_empty()).collect();
    let mut kinds = std::collections::BTreeSet::new();
    for i in 0..2000 {
        kinds.extend(differential::input(&seeds, 1, i).1);
    }
    for k in [
        "type",
        "rank",
        "rank-and-dimensions",
        "dimension",
        "wrapping-size",
        "truncate",
        "append",
        "byte",
        "byte-swapped-header",
        "retype",
        "gzip",
    ] {
        assert!(kinds.contains(k), "{k} never applied: {kinds:?}");
    }
}
