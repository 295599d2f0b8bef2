//! The arena as a backend developer runs it: two processes with the same sessions end on the same
//! hash, whatever worker ran which command, and the hostile mod is held to its own session.

fn run(sessions: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["--sessions", sessions, "--rounds", "4"])
        .output()
        .expect("the arena runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("text")
}

#[test]
fn two_servers_with_the_same_sessions_end_on_the_same_hash() {
    let a = run("12");
    let b = run("12");
    let last = |s: &str| {
        let line = s.lines().last().expect("a last line").to_string();
        assert!(line.starts_with("sessions 12, per-session "), "{line}");
        line.rsplit("hash ").next().expect("a hash").to_string()
    };
    assert_eq!(last(&a), last(&b));
    let hostile = a
        .lines()
        .find(|l| l.starts_with("the hostile mod's session reported "))
        .expect("the hostile session's line");
    let problems: usize = hostile
        .trim_start_matches("the hostile mod's session reported ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(problems > 0, "{hostile}");
    assert!(
        hostile.contains(", and 0 once restored with the mod switched off"),
        "{hostile}"
    );
    // The server's policy read the problems by mod and switched the hostile mod off in its set.
    assert!(
        a.lines()
            .any(|l| l.starts_with("the server switched `greedy` off in its set after ")),
        "{a}"
    );
}
