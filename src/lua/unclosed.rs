//! Which block a Lua syntax error leaves unclosed, guessed from indentation.
//!
//! Lua notices a missing `end` only where the file stops making sense, often lines below the
//! block that lacks it (`unexpected symbol near ')'` at the `end)` of the handler around it). A
//! modder indents: the `end` that lines up under the handler's first line belongs to it, so a block
//! opened between them whose own `end` never came at its own indentation is the likely cause.
//! Only tokens are read (`full_moon`'s lexer works on a file that does not parse), and only when
//! Lua has already refused the file; a guess that cannot be made is no guess.

use full_moon::tokenizer::{Lexer, LexerResult, Symbol, TokenType};
use full_moon::LuaVersion;

/// A block opened and never closed: its keyword and its line, and the line of the `end` that
/// lines up with an outer block instead.
#[derive(Debug, PartialEq)]
pub(super) struct Unclosed {
    pub(super) keyword: &'static str,
    pub(super) line: usize,
    pub(super) end_line: usize,
}

/// The first block whose `end` is missing by indentation, if the indentation says so.
pub(super) fn guess(text: &str) -> Option<Unclosed> {
    let tokens = match Lexer::new(text, LuaVersion::lua54()).collect() {
        LexerResult::Ok(tokens) | LexerResult::Recovered(tokens, _) => tokens,
        LexerResult::Fatal(_) => return None,
    };
    let indents: Vec<usize> = text
        .lines()
        .map(|l| l.len() - l.trim_start().len())
        .collect();
    let indent = |line: usize| indents.get(line.wrapping_sub(1)).copied().unwrap_or(0);
    // Open blocks: keyword, line, indentation of that line.
    let mut open: Vec<(&'static str, usize, usize)> = Vec::new();
    // `for` and `while` take the next `do` as their own.
    let mut loops_awaiting_do = 0usize;
    for token in &tokens {
        let TokenType::Symbol { symbol } = token.token_type() else {
            continue;
        };
        let line = token.start_position().line();
        let opens = match symbol {
            Symbol::Function => Some("function"),
            Symbol::If => Some("if"),
            Symbol::Repeat => Some("repeat"),
            Symbol::For | Symbol::While => {
                loops_awaiting_do += 1;
                Some(if *symbol == Symbol::For {
                    "for"
                } else {
                    "while"
                })
            }
            Symbol::Do if loops_awaiting_do > 0 => {
                loops_awaiting_do -= 1;
                None
            }
            Symbol::Do => Some("do"),
            _ => None,
        };
        if let Some(keyword) = opens {
            open.push((keyword, line, indent(line)));
            continue;
        }
        if !matches!(symbol, Symbol::End | Symbol::Until) {
            continue;
        }
        let Some(&(_, top_line, top_indent)) = open.last() else {
            continue;
        };
        let here = indent(line);
        if top_indent == here || top_line == line {
            open.pop();
            continue;
        }
        // This `end` lines up with an outer block: the blocks opened inside that one, deeper in,
        // never got theirs.
        if let Some(outer) = open.iter().rposition(|&(_, _, i)| i == here) {
            let (keyword, line_opened, _) = open[outer + 1];
            return Some(Unclosed {
                keyword,
                line: line_opened,
                end_line: line,
            });
        }
        open.pop();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_if_without_end_inside_a_handler_is_found_by_its_indentation() {
        let text = "lantern.on(\"turn_started\", function(ev)\n  if ev.turn > 3 then\n    print(\"late\")\n\nend)\n";
        assert_eq!(
            guess(text),
            Some(Unclosed {
                keyword: "if",
                line: 2,
                end_line: 5
            })
        );
    }

    #[test]
    fn well_closed_blocks_and_one_liners_are_no_guess() {
        let text = "for i = 1, 3 do\n  if i > 1 then print(i) end\n  while false do end\nend\nlocal f = function() return 1 end\nrepeat\n  local x = 1\nuntil true\n";
        assert_eq!(guess(text), None);
    }

    #[test]
    fn a_loop_body_without_end_is_named_as_the_loop() {
        let text = "function go()\n  for i = 1, 3 do\n    print(i)\nend\n";
        assert_eq!(
            guess(text),
            Some(Unclosed {
                keyword: "for",
                line: 2,
                end_line: 4
            })
        );
    }
}
