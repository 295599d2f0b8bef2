//! `lantern play` at a real terminal: the binary runs on a pseudo-terminal, as a modder's shell
//! runs it, with its line editor on. Commands sent in one write (a paste without bracketed-paste
//! markers, `tmux send-keys 'status' Enter`) each run at once, in order; none sticks until the
//! next key press, none is lost. Every wait is for the expected text, with a generous timeout.
#![cfg(unix)]

mod common;

use nix::fcntl::OFlag;
use nix::pty::{grantpt, posix_openpt, ptsname_r, unlockpt};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

/// The terminal's output so far, read on a thread of its own.
struct Screen {
    chunks: mpsc::Receiver<Vec<u8>>,
    seen: String,
}

impl Screen {
    /// Waits until the output holds `text` after what was already waited for; the output up to
    /// there is consumed. Panics with everything seen when it does not come.
    fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(at) = self.seen.find(text) {
                let upto = at + text.len();
                let before = self.seen[..upto].to_string();
                self.seen.drain(..upto);
                return before;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(bytes) => self.seen.push_str(&String::from_utf8_lossy(&bytes)),
                Err(_) => panic!("{text:?} never came; the terminal shows:\n{}", self.seen),
            }
        }
    }
}

#[test]
fn commands_sent_in_one_write_each_run_at_once() {
    let mods = common::shipped_mods();
    let master = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let slave_path = ptsname_r(&master).unwrap();
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&slave_path)
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_lantern"))
        .args(["play", "--no-watch", "--seed", "1"])
        .current_dir(mods.path())
        .env("TERM", "xterm")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let master = std::fs::File::from(std::os::fd::OwnedFd::from(master));
    let mut writer = master.try_clone().unwrap();
    let mut reader = master;
    let (tx, chunks) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut screen = Screen {
        chunks,
        seen: String::new(),
    };
    screen.wait_for("`next` to begin.");
    screen.wait_for("> ");

    // Three commands in one write, as a paste without markers or tmux's send-keys sends them.
    writer.write_all(b"status\rquests\rseed\r").unwrap();
    screen.wait_for("health 40/40, gold 120");
    screen.wait_for("no quests started");
    screen.wait_for("\n1");

    // And one more alone after them: nothing was left behind in the editor.
    writer.write_all(b"look\r").unwrap();
    screen.wait_for("You stand at the start of the run");
    writer.write_all(b"quit\r").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
