//! The editor's messages over stdin and stdout, framed as the protocol says (`Content-Length`
//! headers), read within a bound.
//!
//! An editor client may be hostile or broken: `lsp-server`'s own stdio reader sizes its buffer by
//! the `Content-Length` header before reading a byte of the body, so a header claiming a terabyte
//! aborted the server. Here a header is read and checked first, a message is at most
//! [`MOST_BYTES`], and past that the server ends with a message instead. The messages themselves
//! are `lsp-server`'s, handed over an in-memory connection.

use lsp_server::{Connection, Message};
use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;

/// The largest message read: far above any document an editor sends (a whole file's text), far
/// below what would exhaust memory.
pub(super) const MOST_BYTES: usize = 64 * 1024 * 1024;

/// The longest header line read.
const LONGEST_HEADER: u64 = 1024;

/// The threads that read stdin and write stdout; joined, what ended the reading.
pub(super) struct Io {
    reader: JoinHandle<Result<(), String>>,
    writer: JoinHandle<()>,
}

impl Io {
    /// Waits for both threads: what the reader met that was not the protocol's, if anything.
    pub(super) fn join(self) -> Result<(), String> {
        let _ = self.writer.join();
        self.reader
            .join()
            .unwrap_or_else(|_| Err("the reading thread failed".into()))
    }
}

/// The server's end of a connection whose other end speaks over stdin and stdout.
pub(super) fn stdio() -> (Connection, Io) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let reader = std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            match read(&mut input)? {
                Some(message) => {
                    // After `exit` nothing more is read: the editor may keep stdin open until
                    // the server has ended.
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if sender.send(message).is_err() || exit {
                        return Ok(());
                    }
                }
                None => return Ok(()),
            }
        }
    });
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        for message in receiver {
            let mut out = stdout.lock();
            if message.write(&mut out).is_err() || out.flush().is_err() {
                return;
            }
        }
    });
    (server, Io { reader, writer })
}

/// One message, or `None` at the end of the input.
pub(super) fn read(input: &mut impl BufRead) -> Result<Option<Message>, String> {
    let mut size = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = input
            .by_ref()
            .take(LONGEST_HEADER)
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(None);
        }
        let Some(header) = line.strip_suffix(b"\r\n") else {
            return Err(format!(
                "a header line is not one the protocol knows: {}",
                crate::diag::shown_bytes(&line)
            ));
        };
        if header.is_empty() {
            break;
        }
        let header = String::from_utf8_lossy(header);
        let (name, value) = header
            .split_once(": ")
            .ok_or_else(|| format!("a header line is not one the protocol knows: {header}"))?;
        if name.eq_ignore_ascii_case("Content-Length") {
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| format!("`Content-Length: {value}` is not a length"))?;
            if n > MOST_BYTES {
                return Err(format!(
                    "a message of {n} bytes is larger than lantern reads ({})",
                    crate::diag::bytes(MOST_BYTES)
                ));
            }
            size = Some(n);
        }
    }
    let size = size.ok_or("a message has no `Content-Length`")?;
    let mut body = Vec::new();
    input
        .by_ref()
        .take(size as u64)
        .read_to_end(&mut body)
        .map_err(|e| e.to_string())?;
    if body.len() < size {
        return Err(format!(
            "the input ended {} bytes into a message of {size}",
            body.len()
        ));
    }
    let mut framed = format!("Content-Length: {size}\r\n\r\n").into_bytes();
    framed.extend_from_slice(&body);
    Message::read(&mut std::io::Cursor::new(framed)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> Result<Option<Message>, String> {
        read(&mut std::io::Cursor::new(input.to_vec()))
    }

    #[test]
    fn a_message_is_read_as_the_protocol_frames_it() {
        let body = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(matches!(
            read_all(framed.as_bytes()),
            Ok(Some(Message::Notification(_)))
        ));
        assert!(matches!(read_all(b""), Ok(None)));
    }

    #[test]
    fn a_lying_or_broken_header_is_refused_before_anything_is_allocated() {
        let lie = read_all(b"Content-Length: 99999999999999\r\n\r\n{}").unwrap_err();
        assert_eq!(
            lie,
            "a message of 99999999999999 bytes is larger than lantern reads (64 MiB)"
        );
        let short = read_all(b"Content-Length: 10\r\n\r\n{}").unwrap_err();
        assert_eq!(short, "the input ended 2 bytes into a message of 10");
        let endless = [b'x'; 5000];
        assert!(read_all(&endless)
            .unwrap_err()
            .starts_with("a header line is not one the protocol knows"));
        assert_eq!(
            read_all(b"\r\n").unwrap_err(),
            "a message has no `Content-Length`"
        );
    }
}
