//! The string literals of a TOML or Lua text, and TOML's tokens: what the server reads under a
//! cursor and where an ID is named. A text being typed is rarely valid, so these read token by
//! token and never fail: an unclosed string runs to its line's end (TOML, Lua) or the text's
//! (a long string).

use std::ops::Range;

/// A TOML token.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token {
    /// A string: the range of its contents (inside the quotes), whether it was closed.
    Str { inner: Range<usize>, closed: bool },
    /// A bare word: a key, a number, `true`, a date.
    Word(Range<usize>),
    /// One of `[ ] { } = , .`.
    Punct(u8, usize),
    /// A line break outside any string.
    Newline(usize),
}

/// The tokens of a TOML text, comments left out.
pub(super) fn toml_tokens(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\n' => {
                out.push(Token::Newline(i));
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'[' | b']' | b'{' | b'}' | b'=' | b',' | b'.' => {
                out.push(Token::Punct(b[i], i));
                i += 1;
            }
            q @ (b'"' | b'\'') => {
                let (token, next) = toml_string(b, i, q);
                out.push(token);
                i = next;
            }
            _ => {
                let start = i;
                while i < b.len()
                    && !b" \t\r\n#[]{}=,\"'".contains(&b[i])
                    && !(b[i] == b'.' && is_key_char(b, start, i))
                {
                    i += 1;
                }
                if i == start {
                    i += 1;
                }
                out.push(Token::Word(start..i));
            }
        }
    }
    out
}

/// Whether the `.` at `i` splits a dotted key (`a.b`) rather than sitting in a number (`1.5`).
fn is_key_char(b: &[u8], start: usize, i: usize) -> bool {
    !b[start..i]
        .iter()
        .all(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+')
}

/// The string starting at `i` with quote `q`: `"..."`, `'...'` or their triple forms.
fn toml_string(b: &[u8], i: usize, q: u8) -> (Token, usize) {
    let triple = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
    let start = if triple { i + 3 } else { i + 1 };
    let mut j = start;
    while j < b.len() {
        if q == b'"' && b[j] == b'\\' {
            j += 2;
            continue;
        }
        if !triple && b[j] == b'\n' {
            break;
        }
        if b[j] == q && (!triple || (b.get(j + 1) == Some(&q) && b.get(j + 2) == Some(&q))) {
            let end = if triple { j + 3 } else { j + 1 };
            return (
                Token::Str {
                    inner: start..j,
                    closed: true,
                },
                end,
            );
        }
        j += 1;
    }
    let j = j.min(b.len());
    (
        Token::Str {
            inner: start..j,
            closed: false,
        },
        j,
    )
}

/// Which language a text is in, for its strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lang {
    Toml,
    Lua,
}

/// The string literals of a text: the range of each one's contents, and whether it was closed.
pub(super) fn strings(text: &str, lang: Lang) -> Vec<(Range<usize>, bool)> {
    match lang {
        Lang::Toml => toml_tokens(text)
            .into_iter()
            .filter_map(|t| match t {
                Token::Str { inner, closed } => Some((inner, closed)),
                _ => None,
            })
            .collect(),
        Lang::Lua => lua_strings(text),
    }
}

/// The string literals of Lua source: `"..."`, `'...'` and long strings (`[[...]]`, `[==[...]==]`),
/// comments (`--` to the line's end, `--[[ ... ]]`) skipped.
fn lua_strings(text: &str) -> Vec<(Range<usize>, bool)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i += 2;
                if let Some((_, _, next)) = long_bracket(b, i) {
                    i = next;
                } else {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
            }
            q @ (b'"' | b'\'') => {
                let start = i + 1;
                let mut j = start;
                let mut closed = false;
                while j < b.len() && b[j] != b'\n' {
                    if b[j] == b'\\' {
                        j += 2;
                        continue;
                    }
                    if b[j] == q {
                        closed = true;
                        break;
                    }
                    j += 1;
                }
                let j = j.min(b.len());
                out.push((start..j, closed));
                i = if closed { j + 1 } else { j };
            }
            b'[' => match long_bracket(b, i) {
                Some((inner, closed, next)) => {
                    out.push((inner, closed));
                    i = next;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    out
}

/// A long bracket (`[[`, `[=[`, ...) opening at `i`: its contents, whether it closed, and where
/// reading goes on.
fn long_bracket(b: &[u8], i: usize) -> Option<(Range<usize>, bool, usize)> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let level = b[i + 1..].iter().take_while(|&&c| c == b'=').count();
    if b.get(i + 1 + level) != Some(&b'[') {
        return None;
    }
    let start = i + level + 2;
    let mut close = vec![b']'];
    close.extend(std::iter::repeat_n(b'=', level));
    close.push(b']');
    match b[start..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
    {
        Some(p) => Some((start..start + p, true, start + p + close.len())),
        None => Some((start..b.len(), false, b.len())),
    }
}

/// The string literal whose contents hold `offset` (its end included: a cursor just typed), if any.
pub(super) fn string_at(text: &str, lang: Lang, offset: usize) -> Option<Range<usize>> {
    strings(text, lang)
        .into_iter()
        .find(|(r, _)| r.start <= offset && offset <= r.end)
        .map(|(r, _)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, lang: Lang) -> Vec<&str> {
        strings(text, lang)
            .into_iter()
            .map(|(r, _)| &text[r])
            .collect()
    }

    #[test]
    fn toml_strings_of_every_kind_and_none_in_comments() {
        let text = "a = \"x\\\"y\" # \"not\"\nb = 'lit'\nc = \"\"\"multi\nline\"\"\"\nd = [\"p\", 'q']\ne = \"open";
        assert_eq!(
            texts(text, Lang::Toml),
            ["x\\\"y", "lit", "multi\nline", "p", "q", "open"]
        );
    }

    #[test]
    fn lua_strings_of_every_kind_and_none_in_comments() {
        let text = "lantern.on(\"damage_taken\", f) -- \"no\"\nlocal s = [==[long]==] --[[ \"no\" ]] x('y\\'z')";
        assert_eq!(texts(text, Lang::Lua), ["damage_taken", "long", "y\\'z"]);
    }

    #[test]
    fn dotted_keys_split_and_numbers_stay_whole() {
        let tokens = toml_tokens("a.b = 1.5");
        assert!(matches!(tokens[1], Token::Punct(b'.', 1)));
        assert_eq!(tokens.last(), Some(&Token::Word(6..9)));
    }
}
