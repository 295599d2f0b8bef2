//! The console's input: lines from a line editor at a terminal (history, completion of commands
//! and IDs), or plainly from a pipe.

use super::commands::COMMANDS;
use super::{Flavor, Msg};
use crate::game::Game;
use std::io::BufRead;
use std::sync::{mpsc, Arc, Mutex};

/// Feeds lines to the main loop: with a line editor at a terminal, plainly from a pipe.
pub(super) fn read_lines(
    tx: mpsc::Sender<Msg>,
    interactive: bool,
    words: Arc<Mutex<Vec<String>>>,
    done: mpsc::Receiver<()>,
) {
    std::thread::spawn(move || {
        if interactive {
            if let Ok(mut editor) =
                rustyline::Editor::<Completion, rustyline::history::DefaultHistory>::new()
            {
                editor.set_helper(Some(Completion { words }));
                while let Ok(line) = editor.readline("> ") {
                    let _ = editor.add_history_entry(line.as_str());
                    // A paste of several commands (bracketed paste keeps them in one line) runs
                    // them one after another.
                    for command in line.split('\n') {
                        if tx.send(Msg::Line(command.to_string())).is_err() {
                            return;
                        }
                        // Wait until the command's output is printed before going on.
                        if done.recv().is_err() {
                            return;
                        }
                    }
                }
                let _ = tx.send(Msg::End);
                return;
            }
        }
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(Msg::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Msg::End);
    });
}

/// Commands and every ID of the content, for tab completion.
pub(super) fn completion_words(game: &Game, flavor: &Flavor) -> Vec<String> {
    let c = game.content();
    let mut words: Vec<String> = COMMANDS
        .iter()
        .chain(flavor.commands)
        .flat_map(|c| c.names.iter().map(|n| n.to_string()))
        .collect();
    words.extend(c.items.keys().map(|k| k.to_string()));
    words.extend(c.creatures.keys().map(|k| k.to_string()));
    words.extend(c.quests.keys().map(|k| k.to_string()));
    words.extend(c.trigger_ids.keys().map(|k| k.to_string()));
    words.extend(c.events.names().map(str::to_string));
    words.extend(c.declared.verbs.keys().cloned());
    words.sort();
    words.dedup();
    words
}

struct Completion {
    words: Arc<Mutex<Vec<String>>>,
}

impl rustyline::completion::Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let prefix = &line[start..pos];
        let words = self.words.lock().map(|w| w.clone()).unwrap_or_default();
        let matches = words
            .into_iter()
            .filter(|w| {
                w.starts_with(prefix) || w.split(':').nth(1).is_some_and(|n| n.starts_with(prefix))
            })
            .collect();
        Ok((start, matches))
    }
}

impl rustyline::hint::Hinter for Completion {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Completion {}
impl rustyline::validate::Validator for Completion {}
impl rustyline::Helper for Completion {}
