//! The runner against the reference adapters, and against the synthetic
//! adapter `tests/adapters/fake.py`, which misbehaves in each way a real
//! reader was seen to (see its docstring).

use crate::support::{conformance, conformance_varied, fake, script};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The JSON results of `test-reader` on the cases `run` with `fake.py
/// BEHAVIOUR`, plus `extra` options.
fn fake_run(behaviour: &str, run: &[&str], extra: &[&str]) -> Value {
    let f = fake();
    let mut args = vec!["test-reader", "--format", "json"];
    for r in run {
        args.extend(["--run", r]);
    }
    args.extend(extra);
    args.extend(["--", "python3", &f, behaviour]);
    if extra.contains(&"--persistent") {
        args.push("--persistent");
    }
    let (code, out, err) = conformance(&args);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// (status, detail) of the one case `id` under `fake.py BEHAVIOUR`.
fn one(behaviour: &str, id: &str, extra: &[&str]) -> (String, String) {
    let v = fake_run(behaviour, &[id], extra);
    let r = &v["results"][0];
    assert_eq!(r["id"], id, "{v}");
    (
        r["status"].as_str().unwrap().to_string(),
        r["detail"].as_str().unwrap().to_string(),
    )
}

// The reference reader and writer (`idx dump`, `idx write`) pass the whole
// suite: idx-cli/tests/it/cli.rs::dump_and_write_pass_the_whole_conformance_suite.

#[test]
fn an_uncaught_exception_is_a_crash_not_a_rejection() {
    // Exit 1 with a traceback and no error document used to count as a
    // rejection, so a broken reader passed every invalid case.
    let v = fake_run("traceback", &["invalid-trailing-*"], &[]);
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["status"], "crash", "{r}");
        let d = r["detail"].as_str().unwrap();
        assert!(d.contains("without an error document"), "{d}");
        assert!(d.contains("ValueError: this reader has a bug"), "{d}");
    }
    let (s, _) = one("exit1-silent", "invalid-trailing-byte", &[]);
    assert_eq!(s, "crash");
    // A well-formed error document with exit 1 is a rejection.
    let (s, d) = one("none", "invalid-trailing-byte", &[]);
    assert_eq!(
        (s.as_str(), d.as_str()),
        ("pass", "rejected: size mismatch")
    );
}

#[test]
fn an_adapter_that_cannot_read_a_valid_file_stops_the_run_with_exit_2() {
    let f = fake();
    let (code, out, err) = conformance(&["test-reader", "--", "python3", &f, "broken"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("cannot read the simplest valid case, valid-u8-rank1"),
        "{err}"
    );
    assert!(err.contains("ValueError: this reader has a bug"), "{err}");
    let (code, _, err) = conformance(&["test-writer", "--", "sh", "-c", "exit 3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert!(err.contains("(crash: exit status 3)"), "{err}");
}

/// The one note of `v` that is about the preflight.
fn preflight_notes(v: &Value) -> Vec<String> {
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .filter(|n| n.contains("preflight"))
        .collect()
}

#[test]
fn a_reader_that_fails_the_preflight_case_under_the_protocol_is_still_measured() {
    // A reader that rejects valid-u8-rank1, or returns other content for
    // it, works: it is non-conforming, and the run records that case's
    // result instead of stopping with exit 2.
    let some = ["valid-u8-rank1", "valid-u8-rank2", "invalid-trailing-byte"];
    for (behaviour, status, detail) in [
        (
            "reject@valid-u8-rank1",
            "rejected-valid",
            "rejected: this reader rejects it",
        ),
        (
            "off-by-one@valid-u8-rank1",
            "wrong-content",
            "element 3 is 2 instead of 3 (1 of 5 elements differ; u8 shape [5])",
        ),
    ] {
        for extra in [&[][..], &["--persistent"]] {
            let v = fake_run(behaviour, &some, extra);
            let got: Vec<(&str, &str)> = v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["id"].as_str().unwrap(), r["status"].as_str().unwrap()))
                .collect();
            assert_eq!(
                got,
                [
                    ("valid-u8-rank1", status),
                    ("valid-u8-rank2", "pass"),
                    ("invalid-trailing-byte", "pass")
                ],
                "{behaviour} {extra:?}: {v}"
            );
            assert_eq!(v["results"][0]["detail"], detail, "{v}");
            assert_eq!(
                preflight_notes(&v),
                [format!(
                    "the preflight case valid-u8-rank1 did not pass ({status}: {detail}); \
                     the adapter answers under the protocol, so the run goes on"
                )],
                "{v}"
            );
        }
    }
    // the preflight's answer is the case's result: the case is not run again
    // (this reader would read it the second time)
    let (s, d) = one("reject-once@valid-u8-rank1", "valid-u8-rank1", &[]);
    assert_eq!(
        (s.as_str(), d.as_str()),
        (
            "rejected-valid",
            "rejected: this reader rejects it the first time"
        )
    );
    // said once in the human report too, and neither --skip nor an
    // expected-failures file is refused
    let f = fake();
    let (code, out, err) = conformance(&[
        "test-reader",
        "--skip",
        "valid-u8-rank1",
        "--run",
        "valid-u8-rank*",
        "--",
        "python3",
        &f,
        "reject@valid-u8-rank1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("valid-u8-rank1").count(), 1, "{out}");
    assert!(
        out.contains("NOTE  the preflight case valid-u8-rank1 did not pass (rejected-valid: "),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("xfail.txt");
    std::fs::write(&list, "valid-u8-rank1\n").unwrap();
    let (code, out, _) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank*",
        "--expected-failures",
        list.to_str().unwrap(),
        "--",
        "python3",
        &f,
        "reject@valid-u8-rank1",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("XFAIL valid-u8-rank1"), "{out}");
}

#[test]
fn a_writer_that_writes_other_bytes_for_the_preflight_case_is_still_measured() {
    let (code, out, err) = conformance(&[
        "test-writer",
        "--run",
        "valid-u8-rank*",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "cat >/dev/null; printf '\\000'",
    ]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["status"], "wrong-bytes", "{r}");
    }
    assert_eq!(preflight_notes(&v).len(), 1, "{v}");
}

#[test]
// Before, the preflight waited at least 30 s, then 90 s more: a hanging
// adapter was refused after two minutes whatever --timeout said.
fn the_preflight_honours_a_short_timeout() {
    let f = fake();
    for extra in [&[][..], &["--persistent"]] {
        let t = Instant::now();
        // 2 s, then 6 s: 8 s of deadlines, far below the default's 40 s,
        // with room for a loaded machine's slow process starts
        let mut args = vec!["test-reader", "--timeout", "2"];
        args.extend(extra);
        args.extend(["--", "python3", &f, "hang@valid-u8-rank1"]);
        args.extend(extra);
        let (code, out, err) = conformance(&args);
        assert_eq!(code, 2, "{out}");
        assert!(
            err.contains(
                "cannot read the simplest valid case, valid-u8-rank1 \
                 (timeout: no answer in 2.00 s, nor in 6.00 s when run again)"
            ),
            "{err}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(35),
            "{extra:?}: {:?}",
            t.elapsed()
        );
    }
}

#[test]
fn output_that_is_not_the_content_encoding_is_a_crash() {
    for id in ["valid-u8-rank3", "invalid-trailing-byte"] {
        let (s, d) = one("garbage", id, &[]);
        assert_eq!(s, "crash", "{id}: {d}");
        assert!(d.contains("not the content encoding"), "{d}");
    }
}

#[test]
// The bounds below are far under the adapters' 30 s sleeps, and loose enough
// for a loaded 2-core machine.
fn a_background_process_holding_the_pipes_does_not_hold_the_case() {
    let t = Instant::now();
    let (s, d) = one("sleep-background", "valid-u8-rank3", &["--timeout", "5"]);
    assert_eq!(s, "pass", "{d}");
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "waited {:?} for a background sleep",
        t.elapsed()
    );
}

#[test]
fn timeouts_kill_the_process_group() {
    // deadlines a loaded machine meets with a wide margin for the preflight
    // (Python starts and answers in well under 3 s); the adapters under
    // test never answer (an hour's sleep), so only killing ends them
    let t = Instant::now();
    let (s, d) = one("hang", "valid-u8-rank3", &["--timeout", "3"]);
    assert_eq!(s, "timeout", "{d}");
    assert_eq!(d, "no answer in 3.00 s, nor in 9.00 s when run again");
    assert!(t.elapsed() < Duration::from_secs(600), "{:?}", t.elapsed());
    // the adapter's child (an hour's sleep) holds the pipes: only killing
    // the whole group ends the case before the sleep does
    let t = Instant::now();
    let (s, d) = one("hang-child", "valid-u8-rank3", &["--timeout", "3"]);
    assert_eq!(s, "timeout", "{d}");
    assert!(t.elapsed() < Duration::from_secs(600), "{:?}", t.elapsed());
}

#[test]
fn a_deadline_missed_once_is_run_again_before_it_counts() {
    // On a loaded machine a reader can miss its deadline on an input it
    // answers at once when run again; that used to count as a timeout (and,
    // in differential runs, as a class). `slow-once` never answers the first
    // time it sees a file and answers at once the second: the first try
    // fails by counting, not by the clock, and the second has 3 x 4 s to
    // start Python and answer, which a loaded 2-core machine meets with a
    // wide margin.
    for extra in [&["--timeout", "4"][..], &["--persistent", "--timeout", "4"]] {
        let v = fake_run(
            "slow-once",
            &["valid-u8-rank3", "invalid-trailing-byte"],
            extra,
        );
        for r in v["results"].as_array().unwrap() {
            assert_eq!(r["status"], "pass", "{extra:?}: {r}");
        }
    }
    // a reader that never answers still times out, after both tries
    let (s, d) = one(
        "hang",
        "invalid-trailing-byte",
        &["--persistent", "--timeout", "3"],
    );
    assert_eq!(
        (s.as_str(), d.as_str()),
        (
            "timeout",
            "no answer in 3.00 s, nor in 9.00 s when run again"
        )
    );
}

#[test]
fn a_crash_says_why() {
    let (s, d) = one("segv", "valid-u8-rank3", &[]);
    assert_eq!((s.as_str(), d.as_str()), ("crash", "killed by SIGSEGV"));
    // A Rust panic: the message is at the top, the backtrace note at the end.
    let (s, d) = one("panic", "valid-u8-rank3", &[]);
    assert_eq!(s, "crash");
    assert!(
        d.starts_with("exit status 101; stderr: thread 'main' panicked"),
        "{d}"
    );
    assert!(d.contains("index out of bounds"), "{d}");
    assert!(d.ends_with("for a backtrace"), "{d}");
    assert!(d.contains('…'), "{d}");
    // An allocation over the address-space limit.
    let (s, d) = one("memory", "valid-u8-rank3", &["--memory-mib", "512"]);
    assert_eq!(s, "crash");
    assert!(
        d.contains("the memory limit (512 MiB of address space) was the cause"),
        "{d}"
    );
}

#[test]
fn wrong_content_names_the_first_differing_element() {
    let (s, d) = one("off-by-one", "valid-f64-rank1", &[]);
    assert_eq!(s, "wrong-content");
    assert_eq!(
        d,
        "element 3 is 0xbff8000000000001 (-1.5000000000000002) instead of \
         0xbff8000000000000 (-1.5) (1 of 5 elements differ; f64 shape [5])"
    );
    let (_, d) = one("off-by-one", "valid-i32-rank2", &[]);
    assert!(d.starts_with("element 3 is "), "{d}");
    assert!(
        d.ends_with("(1 of 6 elements differ; i32 shape [2, 3])"),
        "{d}"
    );
}

#[test]
fn a_little_endian_reader_is_named_as_such() {
    let (s, d) = one("little-endian", "valid-i32-rank2", &[]);
    assert_eq!(s, "wrong-content");
    assert!(
        d.starts_with("reads multi-byte elements little-endian: every element is byte-swapped"),
        "{d}"
    );
    let (s, d) = one("little-endian", "impl-little-endian-i32-labels", &[]);
    assert_eq!(s, "accepted-little-endian");
    assert!(d.starts_with("matched the little-endian reading"), "{d}");
    // u8 data reads the same either way: no little-endian claim.
    let (s, _) = one("little-endian", "valid-u8-rank3", &[]);
    assert_eq!(s, "pass");
    // Element 0 is 0, the same byte-swapped: the detail names the first
    // element that differs (1, read as 256), not one that does not.
    let (s, d) = one("little-endian", "valid-transpose-i16-2x7", &[]);
    assert_eq!(s, "wrong-content");
    assert_eq!(
        d,
        "reads multi-byte elements little-endian: every element is byte-swapped \
         (element 1 is 256 instead of 1; 13 of 14 elements differ)"
    );
}

#[test]
fn accepted_invalid_says_what_the_reader_returned() {
    let (s, d) = one("accept-all", "invalid-trailing-concatenated", &[]);
    assert_eq!(s, "accepted-invalid");
    assert_eq!(d, "returned u8 shape [19]: 0, 0, 8, 1, 0, 0, 0, 2, …");
}

#[test]
fn no_detail_is_empty() {
    let v = fake_run("none", &[], &["--persistent"]);
    for r in v["results"].as_array().unwrap() {
        assert!(!r["detail"].as_str().unwrap().is_empty(), "{r}");
    }
}

#[test]
fn cases_not_run_are_reported_as_skipped_with_a_reason() {
    let v = fake_run("none", &["invalid-gzip-bomb", "invalid-expect-*"], &[]);
    assert_eq!(v["results"].as_array().unwrap().len(), 0);
    let skipped = v["skipped"].as_array().unwrap();
    let ids: Vec<&str> = skipped.iter().map(|k| k["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "invalid-gzip-bomb",
            "invalid-expect-dtype",
            "invalid-expect-shape"
        ]
    );
    assert!(skipped[0]["reason"]
        .as_str()
        .unwrap()
        .contains("max_decompressed"));
    let f = fake();
    let (_, out, _) = conformance(&[
        "test-reader",
        "--run",
        "invalid-gzip-bomb",
        "--",
        "python3",
        &f,
        "none",
    ]);
    assert!(
        out.contains("SKIP  1 case: needs validator options"),
        "{out}"
    );
    assert!(out.contains(", 1 skipped"), "{out}");
}

#[test]
fn the_json_results_carry_name_version_limits_counts_and_timings() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    let f = fake();
    let (code, out, _) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank*",
        "--run",
        "invalid-gzip-bomb",
        "--name",
        "fake",
        "--impl-version",
        "fake 1.0",
        "--timeout",
        "7",
        "--memory-mib",
        "1024",
        "--json-out",
        path.to_str().unwrap(),
        "--",
        "python3",
        &f,
        "off-by-one@valid-u8-rank2",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL  valid-u8-rank2"), "{out}");
    let v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(v["implementation"]["name"], "fake");
    assert_eq!(v["implementation"]["version"], "fake 1.0");
    assert_eq!(v["limits"]["timeout_seconds"], 7.0);
    assert_eq!(v["limits"]["memory_mib"], 1024);
    assert_eq!(v["counts"]["pass"], 5);
    assert_eq!(v["counts"]["wrong-content"], 1);
    assert_eq!(v["skipped"][0]["id"], "invalid-gzip-bomb");
    assert!(v["results"][0]["seconds"].as_f64().unwrap() > 0.0);
    // the corpus they were made on, for `matrix --merge`
    let cases = idx_conformance::cases::all();
    assert_eq!(v["corpus"]["cases"], cases.len());
    assert_eq!(
        v["corpus"]["sha256"],
        idx_conformance::corpus::fingerprint(&cases)
    );
    let back = idx_conformance::runner::Report::from_json(&v).unwrap();
    let mut v = v;
    v.as_object_mut().unwrap().remove("corpus");
    assert_eq!(back.to_json(), v);
}

#[test]
fn expected_failures_do_not_fail_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("xfail.txt");
    std::fs::write(&list, "# known gaps\ninvalid-trailing-*\n").unwrap();
    let f = fake();
    let (code, out, _) = conformance(&[
        "test-reader",
        "--run",
        "invalid-trailing-*",
        "--expected-failures",
        list.to_str().unwrap(),
        "--",
        "python3",
        &f,
        "accept-all",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("XFAIL"), "{out}");
}

#[test]
// Before, each line's comment held the adapter's message with the random
// temporary path it was given: two runs of the same reader differed on
// every line.
fn the_expected_failures_written_are_the_same_from_run_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let f = fake();
    let written: Vec<String> = ["1", "2"]
        .iter()
        .map(|seed| {
            let p = dir.path().join(format!("xfail-{seed}.txt"));
            let (code, out, err) = conformance(&[
                "test-reader",
                "--run",
                "valid-u8-rank*",
                "--seed",
                seed,
                "--write-expected",
                p.to_str().unwrap(),
                "--",
                "python3",
                &f,
                "reject-naming-it",
            ]);
            assert_eq!(code, 0, "{out}{err}");
            std::fs::read_to_string(&p).unwrap()
        })
        .collect();
    assert_eq!(written[0], written[1]);
    assert!(
        written[0]
            .contains("valid-u8-rank2  # rejected-valid: rejected: cannot read input.idx (in .)\n"),
        "{}",
        written[0]
    );
}

#[test]
fn writers_report_the_first_differing_byte_and_its_place() {
    let (_, out, _) = conformance(&[
        "test-writer",
        "--run",
        "valid-i16-rank1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        // correct for the preflight case (u8 [0..4]), one byte off otherwise
        "c=$(cat); case \"$c\" in *'\"u8\"'*) printf '\\000\\000\\010\\001\\000\\000\\000\\005\\000\\001\\002\\003\\004';; \
         *) printf '\\000\\000\\014\\001';; esac",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let d = v["results"][0]["detail"].as_str().unwrap();
    assert_eq!(v["results"][0]["status"], "wrong-bytes", "{v}");
    assert_eq!(
        d,
        "byte 2 (in the header) is 0x0c instead of 0x0b; 4 bytes written, 18 expected"
    );
}

#[test]
// Before, a writer that wrote its native little-endian payload was told
// only its first differing byte; whether the file read as little-endian
// was left to the library's statistical byte-order test (IDX501), a guess.
// The runner knows the values it asked for: the byte order is a fact.
fn a_writer_that_writes_the_payload_little_endian_fails_naming_the_byte_order() {
    let w = script("little_endian_writer.py");
    let (code, out, err) = conformance(&[
        "test-writer",
        "--run",
        "valid-u8-rank2",
        "--run",
        "valid-i16-rank1",
        "--run",
        "valid-f32-rank2",
        "--run",
        "valid-f64-rank1",
        "--format",
        "json",
        "--",
        "python3",
        &w,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let got = results(&v);
    assert_eq!(got.len(), 4, "{v}");
    for (id, status, detail) in &got {
        if id == "valid-u8-rank2" {
            // one byte per element: no byte order to get wrong
            assert_eq!(status, "pass", "{id}: {detail}");
            continue;
        }
        assert_eq!(status, "wrong-bytes", "{id}: {detail}");
        assert!(
            detail.starts_with(
                "wrote the payload little-endian: every element's bytes are in reverse order (element "
            ),
            "{id}: {detail}"
        );
    }
    let (_, _, i16_detail) = &got[1];
    assert_eq!(
        i16_detail,
        "wrote the payload little-endian: every element's bytes are in reverse order \
         (element 0 is 0x18fc instead of 0xfc18, the value asked for written big-endian, \
         as the format requires)",
    );
}

// ---------------------------------------------------------------------------
// Persistent mode

#[test]
fn persistent_mode_passes_like_one_shot() {
    let some = ["valid-*-rank1", "invalid-t*", "impl-*"];
    let a = fake_run("none", &some, &[]);
    let b = fake_run("none", &some, &["--persistent"]);
    let statuses = |v: &Value| -> Vec<(String, String)> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["id"].to_string(), r["status"].to_string()))
            .collect()
    };
    assert_eq!(statuses(&a), statuses(&b));
    assert_eq!(b["persistent"], true);
}

#[test]
fn a_persistent_adapter_is_restarted_after_a_crash_a_hang_or_garbage() {
    for (behaviour, status) in [
        ("segv@valid-u8-rank3", "crash"),
        ("hang@valid-u8-rank3", "timeout"),
        ("garbage@valid-u8-rank3", "crash"),
    ] {
        let t = Instant::now();
        let v = fake_run(
            behaviour,
            &["valid-u8-rank2", "valid-u8-rank3", "valid-u8-rank4"],
            &["--persistent", "--timeout", "3"],
        );
        let got: Vec<&str> = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["status"].as_str().unwrap())
            .collect();
        assert_eq!(got, ["pass", status, "pass"], "{behaviour}: {v}");
        assert!(t.elapsed() < Duration::from_secs(600), "{behaviour}");
        let notes = v["notes"].as_array().unwrap();
        assert!(
            notes
                .iter()
                // a hang is tried twice (RETRY_FACTOR), so killed twice
                .any(|n| n.as_str().unwrap().contains(if status == "timeout" {
                    "restarted 2 times"
                } else {
                    "restarted 1 time "
                })),
            "{v}"
        );
    }
    let (s, d) = one("segv", "valid-u8-rank3", &["--persistent"]);
    assert_eq!(s, "crash");
    assert_eq!(d, "the persistent adapter was killed by SIGSEGV");
}

#[test]
fn a_persistent_adapter_must_say_its_protocol_version() {
    let (code, _, err) = conformance(&[
        "test-reader",
        "--persistent",
        "--",
        "sh",
        "-c",
        "echo hello; cat",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("its first line is not {\"protocol\": 3}: \"hello\""),
        "{err}"
    );
}

#[test]
fn a_slow_start_is_said_once() {
    for extra in [&["--timeout", "6"][..], &["--persistent", "--timeout", "6"]] {
        let v = fake_run("slow-start", &["valid-u8-rank2", "valid-u8-rank3"], extra);
        let notes: Vec<&str> = v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(notes.len(), 1, "{v}");
        assert!(
            notes[0].starts_with("start-up is a large share of the deadline"),
            "{v}"
        );
    }
}

#[test]
// Before, the runner waited only for a line or the end of stdout, which the
// child kept open: the case was a timeout after four deadlines (10 s, then
// 30 s), and the traceback was lost.
fn a_persistent_adapter_that_dies_while_its_child_holds_stdout_is_a_crash_with_its_stderr() {
    let t = Instant::now();
    let v = fake_run(
        "die-child@valid-u8-rank3",
        &["valid-u8-rank2", "valid-u8-rank3", "valid-u8-rank4"],
        &["--persistent", "--timeout", "10"],
    );
    let got: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(got, ["pass", "crash", "pass"], "{v}");
    let r = &v["results"][1];
    let d = r["detail"].as_str().unwrap();
    assert!(
        d.starts_with("the persistent adapter exited with status 1; stderr: Traceback"),
        "{d}"
    );
    assert!(d.ends_with("ValueError: this reader died"), "{d}");
    assert!(r["seconds"].as_f64().unwrap() < 5.0, "{r}");
    // one crash, one restart: not a timeout run again
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(notes.iter().any(|n| n.contains("restarted 1 time ")), "{v}");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}

#[test]
// Before, it was refused only when its child ended (30 s here), or when the
// 30 s start-up deadline passed, and then tried again.
fn a_persistent_adapter_that_exits_at_start_is_refused_at_once() {
    let f = fake();
    let t = Instant::now();
    let (code, out, err) = conformance(&[
        "test-reader",
        "--persistent",
        "--",
        "python3",
        &f,
        "die-at-start",
        "--persistent",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(
            "(crash: persistent adapter did not start: exited with status 1; stderr: Traceback"
        ),
        "{err}"
    );
    assert!(
        err.contains("ValueError: this adapter cannot start"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
}

#[test]
// Every MNIST-shaped case has 28 x 28 items: a reader that never reads the
// row and column counts passed them all.
fn a_reader_that_hard_codes_28_x_28_fails_the_same_bytes_cases() {
    let v = fake_run(
        "hard-28x28",
        &["valid-mnist-images-*", "valid-u8-same-bytes-*"],
        &[],
    );
    let mut failed = Vec::new();
    for r in v["results"].as_array().unwrap() {
        if r["status"] != "pass" {
            assert_eq!(r["status"], "wrong-content", "{r}");
            failed.push((
                r["id"].as_str().unwrap().to_string(),
                r["detail"].as_str().unwrap().to_string(),
            ));
        }
    }
    assert_eq!(
        failed,
        [
            (
                "valid-u8-same-bytes-2x14x56".to_string(),
                "shape [2, 28, 28] instead of [2, 14, 56] (u8, 1568 elements instead of 1568; \
                 the same elements in the same order)"
                    .to_string()
            ),
            (
                "valid-u8-same-bytes-3x56x14".to_string(),
                "shape [3, 28, 28] instead of [3, 56, 14] (u8, 2352 elements instead of 2352; \
                 the same elements in the same order)"
                    .to_string()
            ),
        ],
        "{v}"
    );
}

// ---------------------------------------------------------------------------
// What reaches the adapter

/// (id, status, detail) of every result of `v`.
fn results(v: &Value) -> Vec<(String, String, String)> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
// Before, the runner gave the adapter the corpus file itself: a reader that
// never parsed IDX passed every case from the manifest beside it (or
// index.json above it) with --corpus, and every invalid case from the name
// (`invalid-*`) without.
fn the_runner_cannot_be_fed_the_answer() {
    let cheat = script("cheat.py");
    let corpus = idx_conformance::default_corpus().display().to_string();
    let some = ["valid-u8-rank2", "invalid-trailing-*", "impl-gzip-u8-4x5"];
    for corpus_args in [&["--corpus", &corpus][..], &[]] {
        for persistent in [false, true] {
            let mut args = vec!["test-reader", "--format", "json"];
            args.extend(corpus_args);
            for r in some {
                args.extend(["--run", r]);
            }
            if persistent {
                args.push("--persistent");
            }
            args.extend(["--", "python3", &cheat, "manifest"]);
            if persistent {
                args.push("--persistent");
            }
            let (code, out, err) = conformance(&args);
            assert_eq!(code, 1, "{corpus_args:?} {persistent}: {out}{err}");
            let v: Value = serde_json::from_str(&out).unwrap();
            for (id, status, detail) in results(&v) {
                assert_ne!(status, "pass", "{id}: {detail}");
                assert_ne!(status, "accepted", "{id}: {detail}");
            }
        }
    }
    // what it sees: one neutral name (.gz kept), alone, no index above
    for persistent in [false, true] {
        let mut args = vec![
            "test-reader",
            "--format",
            "json",
            "--corpus",
            &corpus,
            "--run",
            "valid-u8-rank1",
            "--run",
            "impl-gzip-u8-4x5",
            "--run",
            "invalid-trailing-byte",
        ];
        if persistent {
            args.push("--persistent");
        }
        args.extend(["--", "python3", &cheat, "look"]);
        if persistent {
            args.push("--persistent");
        }
        let (_, out, err) = conformance(&args);
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
        let seen: Vec<(String, String)> =
            results(&v).into_iter().map(|(id, _, d)| (id, d)).collect();
        let saw =
            |name: &str| format!("rejected: name={name} beside=[] index_above=False mode=700");
        assert_eq!(
            seen,
            [
                ("valid-u8-rank1".to_string(), saw("input.idx")),
                ("impl-gzip-u8-4x5".to_string(), saw("input.idx.gz")),
                ("invalid-trailing-byte".to_string(), saw("input.idx")),
            ],
            "{v}"
        );
    }
}

// ---------------------------------------------------------------------------
// Persistent answers matched to their request

#[test]
// Before, the runner took the next line as the answer without looking for
// one already waiting: the second copy of each answer became the answer
// to the next request (30 passes over the corpus, no note).
fn a_persistent_adapter_that_answers_twice_fails_every_case_it_answered_twice() {
    let some = ["valid-u8-rank2", "valid-u8-rank3", "invalid-trailing-byte"];
    let v = fake_run("double", &some, &["--persistent"]);
    let got = results(&v);
    for (id, status, detail) in &got {
        assert_eq!(status, "crash", "{id}: {detail}");
        assert!(
            detail.starts_with("after its answer (pass: ")
                && detail.contains("), the adapter printed another line: \"{")
                && detail.ends_with(
                    ": one answer line per request is the protocol, so the adapter was out of step"
                ),
            "{id}: {detail}"
        );
    }
    // the closing probe valid-u8-rank2 is answered twice too: its second
    // line, read when the input ends, counts for nothing
    assert!(
        !got.iter().any(|r| r.2.contains("before it exited")),
        "{got:?}"
    );
    // only the case answered twice
    let v = fake_run("double@valid-u8-rank3", &some, &["--persistent"]);
    let got: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(got, ["pass", "crash", "pass"], "{v}");
}

#[test]
// Protocol 2 carries no request id: an adapter that answers each request
// with the previous request's answer passed nearly every invalid case.
// Under protocol 3 each answer echoes its request's id, and an answer to
// the request before counts against that request.
fn a_persistent_adapter_one_answer_behind_is_caught_by_the_request_id() {
    let some = ["valid-u8-rank2", "valid-u8-rank3", "invalid-trailing-byte"];
    let v = fake_run("lag", &some, &["--persistent"]);
    let got = results(&v);
    // each case's answer came again with the next request, the last one's
    // with the first closing probe
    for (id, status, detail) in &got {
        assert_eq!(status, "crash", "{id}: {detail}");
        assert!(
            detail.starts_with("after its answer (pass: ")
                && detail.contains("), the adapter printed another answer to it (id "),
            "{id}: {detail}"
        );
    }
    assert!(
        preflight_notes(&v)[0].contains("did not pass (crash: after its answer (pass: "),
        "{v}"
    );
}

#[test]
// Before, an adapter that stamped each request's id on the previous
// request's answer was in step by the ids: it passed 104 invalid cases
// without reading them in order. The runner compares an accepted answer
// with the content the request before wanted; two valid closing probes
// catch it whatever the order.
fn a_persistent_adapter_that_stamps_the_id_on_the_previous_answer_is_out_of_step() {
    let some = [
        "valid-u8-rank2",
        "valid-u8-rank3",
        "invalid-trailing-byte",
        "invalid-truncated-payload",
    ];
    for seed in ["1", "2", "3"] {
        let v = fake_run("lag-stamped", &some, &["--persistent", "--seed", seed]);
        let got = results(&v);
        assert_eq!(got.len(), 4, "{v}");
        for (id, status, detail) in &got {
            assert_eq!(status, "crash", "{seed} {id}: {detail}");
            assert!(detail.starts_with("out of step: "), "{seed} {id}: {detail}");
        }
    }
    // an honest adapter is never out of step
    let v = fake_run("none", &some, &["--persistent", "--seed", "1"]);
    for (id, status, detail) in results(&v) {
        assert_eq!(status, "pass", "{id}: {detail}");
    }
}

#[test]
fn under_protocol_3_an_answer_without_its_request_id_is_a_crash() {
    let (code, _, err) = conformance(&[
        "test-reader",
        "--persistent",
        "--",
        "python3",
        &fake(),
        "no-id",
        "--persistent",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("(crash: the answer has no \"id\" (protocol 3: each answer carries its request's, here "),
        "{err}"
    );
    assert!(err.contains("): \"{\\\"dtype\\\""), "{err}");
}

#[test]
// Protocol 2 answers carry no id: an adapter answering each request with
// the previous request's answer passed 104 invalid cases with one note.
fn a_protocol_2_persistent_adapter_is_refused_with_how_to_upgrade() {
    let (code, out, err) = conformance(&[
        "test-reader",
        "--persistent",
        "--",
        "python3",
        &fake(),
        "v2:none",
        "--persistent",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(
            "persistent adapter did not start: it speaks protocol 2, and persistent adapters \
             must speak protocol 3"
        ),
        "{err}"
    );
    assert!(
        err.contains("copy each request's \"id\" into its answer line"),
        "{err}"
    );
    // one-shot, it is run as before
    let v = fake_run("v2:none", &["valid-*-rank1", "invalid-t*"], &[]);
    for (id, status, detail) in results(&v) {
        assert_eq!(status, "pass", "{id}: {detail}");
    }
}

#[test]
// corpus/README.md requires a message; `{"error": {}}` used to count as a
// rejection (its detail the empty object).
fn an_error_document_without_a_message_is_a_crash() {
    for extra in [&[][..], &["--persistent"]] {
        let (s, d) = one("error-without-message", "invalid-trailing-byte", extra);
        assert_eq!(s, "crash", "{extra:?}: {d}");
        assert!(
            d.contains(
                "an error document needs a \"message\" string (or a string as \"error\"): {}"
            ),
            "{extra:?}: {d}"
        );
    }
}

#[test]
// Before, an adapter that never printed its ready line was refused after
// 60 s (two start-ups of 30 s) with "no answer in 3.00 s, nor in 9.00 s".
fn a_persistent_start_up_timeout_says_the_deadline_it_had() {
    let t = Instant::now();
    let (code, out, err) = conformance(&[
        "test-reader",
        "--persistent",
        "--timeout",
        "0.5",
        "--startup-timeout",
        "1",
        "--",
        "python3",
        &fake(),
        "never-ready",
        "--persistent",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(
            "(timeout: the persistent adapter printed no ready line in 1.00 s (its start-up deadline), \
             nor in 1.50 s when started again)"
        ),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}

#[test]
// `--timeout inf` panicked (a Duration from an infinite number of seconds).
fn any_number_of_seconds_is_a_deadline_not_a_panic() {
    for t in ["inf", "1e300", "nan"] {
        for option in ["--timeout", "--startup-timeout"] {
            let (code, _, err) =
                conformance(&["test-reader", option, t, "--", "sh", "-c", "exit 3"]);
            assert_eq!(code, 2, "{option} {t}: {err}");
            assert!(
                err.contains("(crash: exit status 3)"),
                "{option} {t}: {err}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Adapters written to cheat: what they find to look up

/// `test-reader` with `cheat.py HOW` over the cases `run` (all when
/// empty), seeded, with its own `TMPDIR` (where a runner's corpus copy was
/// written, and nothing else's): the results.
fn cheat_run(how: &str, run: &[&str], extra: &[&str]) -> Vec<(String, String, String)> {
    let tmp = tempfile::tempdir().unwrap();
    let cheat = script("cheat.py");
    let mut args = vec!["test-reader", "--format", "json", "--seed", "43"];
    for r in run {
        args.extend(["--run", r]);
    }
    args.extend(extra);
    args.extend(["--", "python3", &cheat, how]);
    if extra.contains(&"--persistent") {
        args.push("--persistent");
    }
    let o = test_support::Cmd::new(env!("CARGO_BIN_EXE_idx-conformance"))
        .args(&args)
        .dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", tmp.path())
        .out();
    assert!(o.code == 0 || o.code == 1, "{how}: {}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    results(&v)
}

/// Asserts that the invalid cases of `got` that passed are cases whose
/// bytes the run (seed 43) left as committed: the cases the corpus still
/// gives away (corpus/README.md, "Threat model").
fn only_the_unvaried_pass(got: &[(String, String, String)]) {
    for (id, status, _) in got {
        if id.starts_with("invalid-") && status == "pass" {
            let c = idx_conformance::cases::all()
                .into_iter()
                .find(|c| &c.id == id)
                .unwrap();
            assert_eq!(
                idx_conformance::runner::vary(&c, 43).bytes,
                c.bytes,
                "{id} was varied, yet its answer was found"
            );
        }
    }
}

/// How many of `got` passed: of the invalid cases, and of the others.
fn passes(got: &[(String, String, String)]) -> (usize, usize) {
    let pass = |invalid: bool| {
        got.iter()
            .filter(|(id, s, _)| id.starts_with("invalid-") == invalid && s == "pass")
            .count()
    };
    (pass(true), pass(false))
}

#[test]
// Before, the runner wrote every case under its ID into a world-readable
// /tmp/idx-corpus-*/{valid,invalid,...}/ for the whole run: an adapter
// that compared its input with those files passed every case.
fn an_adapter_finds_no_corpus_copy_to_compare_its_input_with() {
    let corpus = idx_conformance::default_corpus().display().to_string();
    // with --corpus, the parent's command line leads to the committed
    // files: the variants are not among them
    for extra in [&[][..], &["--persistent"], &["--corpus", &corpus]] {
        let got = cheat_run("copy", &["invalid-t*", "valid-u8-*"], extra);
        // as a reader that accepts everything: no invalid case passes but
        // those whose bytes cannot vary, found in the committed corpus
        only_the_unvaried_pass(&got);
        if extra.is_empty() {
            assert_eq!(passes(&got).0, 0, "{got:?}");
        }
        assert!(got.len() > 10, "{got:?}");
    }
}

#[test]
// Before, the preflight case came first and the corpus followed in its
// order, with request ids counting from 1: an adapter that counted its
// requests knew each case without reading a byte, and passed them all.
fn counting_requests_does_not_say_which_case_an_input_is() {
    let got = cheat_run("count", &[], &["--persistent"]);
    assert!(got.len() > 150, "{}", got.len());
    let (invalid, other) = passes(&got);
    // what its answers are worth now: another case's, at random; a valid
    // case passes only when the draw is that case
    assert!(other <= 3, "{other} valid cases passed: {got:?}");
    assert!(
        invalid + other < got.len() / 2,
        "{invalid} + {other}: {got:?}"
    );
}

#[test]
// Before, every input was a committed corpus file: an adapter that looked
// its SHA-256 up in corpus/index.json passed every case.
fn the_committed_corpus_does_not_say_what_an_input_is() {
    for extra in [&[][..], &["--persistent"]] {
        let got = cheat_run("memorise", &["invalid-*", "valid-u8-*"], extra);
        only_the_unvaried_pass(&got);
        // without variants it passed them all; now the varied ones fail,
        // as a reader that accepts everything fails them
        let varied_failed = got
            .iter()
            .filter(|(id, s, _)| id.starts_with("invalid-") && s == "accepted-invalid")
            .count();
        assert!(varied_failed > 10, "{got:?}");
        assert_eq!(passes(&got).1, 0, "{got:?}");
        assert!(got.len() > 100, "{got:?}");
    }
}

/// (id, status) of `lenient.py` (persistent) over the whole corpus under
/// `seed`.
fn lenient_statuses(seed: &str) -> Vec<(String, String)> {
    let l = script("lenient.py");
    let (code, out, err) = conformance_varied(&[
        "test-reader",
        "--format",
        "json",
        "--persistent",
        "--seed",
        seed,
        "--",
        "python3",
        &l,
        "--persistent",
    ]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    results(&v).into_iter().map(|(id, s, _)| (id, s)).collect()
}

#[test]
// Each case's bytes vary with the seed; a reader's result must not.
fn an_honest_readers_results_are_the_same_whatever_the_seed() {
    let a = lenient_statuses("1");
    assert!(a.len() > 150, "{a:?}");
    assert!(a.iter().any(|(_, s)| s == "accepted-invalid"), "{a:?}");
    assert_eq!(a, lenient_statuses("2"));
    let v = {
        let (_, out, _) = conformance_varied(&[
            "test-reader",
            "--format",
            "json",
            "--persistent",
            "--seed",
            "3",
            "--",
            "python3",
            &fake(),
            "none",
            "--persistent",
        ]);
        serde_json::from_str::<Value>(&out).unwrap()
    };
    for (id, status, detail) in results(&v) {
        assert!(
            status == "pass" || status == "accepted" || status == "rejected",
            "{id}: {status} {detail}"
        );
    }
}

#[test]
// A reader that fails some variants of a case and passes others: the
// failure names this run's variant and seed and the committed bytes' result
// (run again because the variant's disagreed with the expected failures);
// the expected failures written list the case as failed (its committed
// bytes fail) or as failed on some variants (`~ID`: they pass), without a
// detail of this run's bytes; and that file holds under every seed.
fn a_failure_of_some_variants_names_the_variant() {
    let f = fake();
    let dir = tempfile::tempdir().unwrap();
    // the committed invalid-trailing-byte's payload byte is 42: even
    for (behaviour, committed, line) in [
        (
            "trailing-even",
            "; on the committed bytes: accepted-invalid: returned u8 shape [1]: 42",
            "\ninvalid-trailing-byte  # its bytes vary from run to run; see its report\n",
        ),
        (
            "trailing-odd",
            "; the committed bytes pass: the reader fails some variants of this case, not all",
            "\n~invalid-trailing-byte  # fails some of its variants (its bytes vary from run to run; see its report)\n",
        ),
    ] {
        let run = |seed: u64, file: &[&str]| {
            let seed = seed.to_string();
            let (code, out, err) = conformance_varied(
                &[
                    &["test-reader", "--format", "json"][..],
                    &["--run", "invalid-trailing-byte", "--seed", &seed],
                    file,
                    &["--", "python3", &f, behaviour],
                ]
                .concat(),
            );
            let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
            (code, results(&v).remove(0))
        };
        let mut seen = std::collections::BTreeSet::new();
        let mut written = None;
        for seed in 1..=8 {
            let xf = dir.path().join(format!("xf-{behaviour}-{seed}.txt"));
            let (_, (_, status, detail)) =
                run(seed, &["--write-expected", xf.to_str().unwrap()]);
            let text = std::fs::read_to_string(&xf).unwrap();
            if status != "pass" {
                assert_eq!(status, "accepted-invalid", "{detail}");
                let variant = format!(" (seed {seed}){committed}");
                assert!(
                    detail.contains("; this run's variant: ")
                        && detail.contains(" random bytes after it (seed ")
                        && detail.ends_with(&variant),
                    "{behaviour} {seed}: {detail}"
                );
                assert!(text.contains(line), "{behaviour} {seed}: {text}");
                written = Some(xf);
            } else {
                assert!(!text.contains("invalid-trailing-byte"), "{text}");
            }
            seen.insert(status);
        }
        assert_eq!(seen.len(), 2, "{behaviour}: {seen:?}");
        // a pass of a variant is no change from the file: when it is listed
        // without `~`, because the committed bytes, run again, fail
        let xf = written.unwrap();
        let check = ["--expected-failures", xf.to_str().unwrap(), "--strict-expected"];
        for seed in 1..=8 {
            let (code, (_, status, detail)) = run(seed, &check);
            assert_eq!(code, 0, "{behaviour} {seed}: {status}: {detail}");
        }
    }
}

/// The invalid cases shorter than a magic number (4 bytes): their size
/// alone makes them invalid, whoever reads it, and they cannot vary in
/// length (corpus/README.md, "Threat model").
fn too_short_for_a_magic_number() -> Vec<String> {
    idx_conformance::cases::all()
        .into_iter()
        .filter(|c| c.id.starts_with("invalid-") && c.bytes.len() < 4)
        .map(|c| c.id)
        .collect()
}

/// The invalid cases of `got` that passed, but those too short for a
/// magic number.
fn beats(got: &[(String, String, String)]) -> Vec<String> {
    let short = too_short_for_a_magic_number();
    got.iter()
        .filter(|(id, s, _)| id.starts_with("invalid-") && s == "pass" && !short.contains(id))
        .map(|(id, _, detail)| format!("{id}: {detail}"))
        .collect()
}

#[test]
// Before, each case's bytes were the committed ones: an adapter that looked
// an input's SHA-256, or only its size, up in the committed corpus passed
// nearly every invalid case; now the bytes and the lengths vary.
fn cheats_do_no_better_than_accepting_everything_on_the_invalid_cases() {
    let accept = cheat_run("accept", &["invalid-*"], &["--persistent"]);
    assert!(accept.len() > 90, "{accept:?}");
    assert_eq!(passes(&accept).0, 0, "{accept:?}");
    // (the counting cheat answers a case drawn at random by the order:
    // chance, as `counting_requests_does_not_say_which_case_an_input_is`
    // shows)
    for how in ["memorise", "size", "copy"] {
        for extra in [&["--persistent"][..], &[]] {
            if extra.is_empty() && how == "copy" {
                continue; // covered one-shot by the tests above
            }
            let got = cheat_run(how, &["invalid-*"], extra);
            assert_eq!(got.len(), accept.len(), "{how}");
            assert_eq!(beats(&got), Vec::<String>::new(), "{how} {extra:?}");
        }
    }
    // without variants the lookups find their cases: what the test above
    // would catch
    for how in ["memorise", "size"] {
        let got = cheat_run(how, &["invalid-*"], &["--persistent", "--no-variants"]);
        assert!(beats(&got).len() > 50, "{how}: {:?}", beats(&got));
    }
}

#[test]
// The same comparisons as a matrix run makes them: each cheat's row (the
// four kinds: the runner's copy, the committed corpus looked up by hash or
// by size, the order counted, and a persistent adapter one answer behind
// with the right ids) against the row of an adapter that accepts
// everything.
fn in_the_matrix_cheats_do_no_better_than_accepting_everything() {
    let dir = tempfile::tempdir().unwrap();
    let cheat = script("cheat.py");
    let fake = fake();
    let hows = ["accept", "memorise", "size", "copy", "count", "lag"];
    for how in hows {
        let (one, persistent) = if how == "lag" {
            (
                format!("[\"python3\", \"{fake}\", \"lag-stamped\"]"),
                format!("[\"python3\", \"{fake}\", \"lag-stamped\", \"--persistent\"]"),
            )
        } else {
            (
                format!("[\"python3\", \"{cheat}\", \"{how}\"]"),
                format!("[\"python3\", \"{cheat}\", \"{how}\", \"--persistent\"]"),
            )
        };
        let toml = format!(
            "name = \"{how}\"\nsummary = \"a cheat\"\nversion = [\"echo\", \"{how} 1.0\"]\n\
             timeout = 5\n\n[reader]\ncommand = {one}\npersistent = {persistent}\n"
        );
        std::fs::write(dir.path().join(format!("{how}.toml")), toml).unwrap();
    }
    let results = dir.path().join("results");
    let mut args = vec!["matrix", "--seed", "7"];
    for how in hows {
        args.extend(["--only", how]);
    }
    let (code, out, err) = conformance_varied(
        &[
            &args[..],
            &[
                "--adapters",
                dir.path().to_str().unwrap(),
                "--envs",
                dir.path().join("envs").to_str().unwrap(),
                "--results",
                results.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let row = |how: &str| {
        let p = results.join(format!("{how}-reader.json"));
        let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        results_of(&v)
    };
    let accept = row("accept");
    assert!(accept.len() > 150, "{accept:?}");
    assert_eq!(passes(&accept).0, 0, "{accept:?}");
    for how in ["memorise", "size", "copy"] {
        let got = row(how);
        assert_eq!(got.len(), accept.len(), "{how}");
        assert_eq!(beats(&got), Vec::<String>::new(), "{how}");
    }
    // counting: another case's answer, at random (a valid case passes only
    // when the draw is that case)
    let count = row("count");
    let (invalid, other) = passes(&count);
    assert!(other <= 3, "{other} valid cases passed: {count:?}");
    assert!(invalid + other < count.len() / 2, "{count:?}");
    // one answer behind, stamped with the right ids: out of step, every case
    let lag = row("lag");
    assert_eq!(passes(&lag), (0, 0), "{lag:?}");
}

fn results_of(v: &Value) -> Vec<(String, String, String)> {
    results(v)
}
