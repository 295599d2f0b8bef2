//! One text of a locale file: literal pieces and `{name}` arguments, or plural forms chosen by the
//! `count` argument with the language's CLDR rules.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A value a text's `{name}` is filled with: a number (which also chooses plural forms) or text.
#[derive(Debug, Clone, PartialEq)]
pub enum TextArg {
    /// A whole number.
    Num(i64),
    /// Text, shown as it is.
    Str(String),
}

impl std::fmt::Display for TextArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextArg::Num(n) => write!(f, "{n}"),
            TextArg::Str(s) => f.write_str(s),
        }
    }
}

macro_rules! num_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for TextArg {
            fn from(n: $t) -> TextArg {
                TextArg::Num(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
num_arg!(i32, i64, u32, u64, usize);

/// A name put into a text is shown as a [`Name`](crate::content::Name) is: escaped, so it
/// cannot break the text's lines.
impl From<&crate::content::Name> for TextArg {
    fn from(name: &crate::content::Name) -> TextArg {
        TextArg::Str(name.to_string())
    }
}

impl From<crate::content::Name> for TextArg {
    fn from(name: crate::content::Name) -> TextArg {
        TextArg::from(&name)
    }
}

impl From<&str> for TextArg {
    fn from(s: &str) -> TextArg {
        TextArg::Str(s.to_string())
    }
}

impl From<String> for TextArg {
    fn from(s: String) -> TextArg {
        TextArg::Str(s)
    }
}

impl TextArg {
    /// How many bytes it fills a `{name}` with.
    fn len(&self) -> usize {
        match self {
            TextArg::Num(n) => {
                let digits = n
                    .unsigned_abs()
                    .checked_ilog10()
                    .map_or(1, |d| d as usize + 1);
                digits + usize::from(*n < 0)
            }
            TextArg::Str(s) => s.len(),
        }
    }
}

/// The longest a text may be once its arguments are filled in. A template that names an argument
/// many times, filled with long text, would ask for gigabytes: its length is counted first, and
/// past this it is not rendered.
pub(crate) const MOST_RENDERED: usize = 1024 * 1024;

/// The CLDR plural categories, in CLDR's order.
pub(crate) const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// A parsed text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Text {
    /// One form for every count.
    One(Template),
    /// Forms by plural category (`one`, `other`, ...); `other` is always there.
    Plural(BTreeMap<&'static str, Template>),
}

/// Literal pieces and arguments, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Template(Vec<Piece>);

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Lit(String),
    Arg(String),
}

impl Template {
    /// The text as a locale file writes it: arguments in braces, a brace doubled.
    pub(crate) fn written(&self) -> String {
        let mut out = String::new();
        for piece in &self.0 {
            match piece {
                Piece::Lit(text) => out.push_str(&text.replace('{', "{{").replace('}', "}}")),
                Piece::Arg(name) => out.push_str(&format!("{{{name}}}")),
            }
        }
        out
    }

    /// Reads `"{count} rats remain"`; `{{` and `}}` are braces. The error says what is wrong.
    pub(crate) fn parse(text: &str) -> Result<Template, String> {
        let mut pieces = Vec::new();
        let mut lit = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    lit.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    lit.push('}');
                }
                '{' => {
                    let mut name = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break,
                            Some(c) => name.push(c),
                            None => {
                                return Err(format!(
                                    "`{{{name}` is not closed: write `}}` after the argument's name, or `{{{{` for a brace"
                                ))
                            }
                        }
                    }
                    if !crate::id::is_ident(&name) {
                        return Err(format!(
                            "`{{{name}}}` is not an argument: a name is lowercase letters, digits and `_` (write `{{{{` for a brace)"
                        ));
                    }
                    if !lit.is_empty() {
                        pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                    }
                    pieces.push(Piece::Arg(name));
                }
                '}' => return Err("a `}` closes nothing: write `}}` for a brace".to_string()),
                c => lit.push(c),
            }
        }
        if !lit.is_empty() {
            pieces.push(Piece::Lit(lit));
        }
        Ok(Template(pieces))
    }

    /// The names of its arguments.
    pub(crate) fn args(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|p| match p {
            Piece::Arg(a) => Some(a.as_str()),
            Piece::Lit(_) => None,
        })
    }

    /// How long [`Template::render`] makes it with `args`, counted without writing it.
    fn rendered_len(&self, args: &[(&str, TextArg)]) -> usize {
        self.0.iter().fold(0usize, |len, piece| {
            len.saturating_add(match piece {
                Piece::Lit(s) => s.len(),
                Piece::Arg(name) => match args.iter().find(|(n, _)| n == name) {
                    Some((_, v)) => v.len(),
                    None => name.len() + 2,
                },
            })
        })
    }

    /// Writes it with `args`; an argument not given stays `{name}`, so the line still reads.
    fn render(&self, args: &[(&str, TextArg)], out: &mut String) {
        for piece in &self.0 {
            match piece {
                Piece::Lit(s) => out.push_str(s),
                Piece::Arg(name) => match args.iter().find(|(n, _)| n == name) {
                    Some((_, v)) => {
                        let _ = write!(out, "{v}");
                    }
                    None => {
                        let _ = write!(out, "{{{name}}}");
                    }
                },
            }
        }
    }
}

impl Text {
    /// The names of the arguments any of its forms uses.
    pub(crate) fn args(&self) -> Vec<&str> {
        let mut names: Vec<&str> = match self {
            Text::One(t) => t.args().collect(),
            Text::Plural(forms) => forms.values().flat_map(Template::args).collect(),
        };
        if matches!(self, Text::Plural(_)) {
            names.push("count");
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The text in `lang` with `args`: a plural's form is chosen by `count`. Past
    /// [`MOST_RENDERED`] bytes, the length it would have, unrendered.
    pub(crate) fn render(&self, lang: &str, args: &[(&str, TextArg)]) -> Result<String, usize> {
        let form = match self {
            Text::One(t) => Some(t),
            Text::Plural(forms) => {
                let count = args.iter().find_map(|(n, v)| match (n, v) {
                    (&"count", TextArg::Num(c)) => Some(*c),
                    _ => None,
                });
                count
                    .and_then(|c| forms.get(category(lang, c)))
                    .or_else(|| forms.get("other"))
            }
        };
        let Some(t) = form else {
            return Ok(String::new());
        };
        let len = t.rendered_len(args);
        if len > MOST_RENDERED {
            return Err(len);
        }
        let mut out = String::with_capacity(len);
        t.render(args, &mut out);
        Ok(out)
    }
}

/// CLDR's cardinal rules for `lang`, or for its base language (`de` for `de-AT`).
fn rules(lang: &str) -> Option<intl_pluralrules::PluralRules> {
    use intl_pluralrules::{PluralRuleType, PluralRules};
    use unic_langid::LanguageIdentifier;
    let id = lang.parse::<LanguageIdentifier>().ok()?;
    let bare = LanguageIdentifier::from_parts(id.language, None, None, &[]);
    PluralRules::create(id, PluralRuleType::CARDINAL)
        .or_else(|_| PluralRules::create(bare, PluralRuleType::CARDINAL))
        .ok()
}

/// The CLDR category of `count` in `lang` (`"other"` for a language CLDR does not know).
pub(crate) fn category(lang: &str, count: i64) -> &'static str {
    rules(lang).map_or("other", |r| select(&r, count))
}

fn select(rules: &intl_pluralrules::PluralRules, count: i64) -> &'static str {
    use intl_pluralrules::PluralCategory;
    match rules.select(count) {
        Ok(PluralCategory::ZERO) => "zero",
        Ok(PluralCategory::ONE) => "one",
        Ok(PluralCategory::TWO) => "two",
        Ok(PluralCategory::FEW) => "few",
        Ok(PluralCategory::MANY) => "many",
        _ => "other",
    }
}

/// The categories whole counts take in `lang`, for telling a translator a form is never chosen
/// (every category for a language CLDR does not know).
pub(crate) fn categories(lang: &str) -> Vec<&'static str> {
    let Some(rules) = rules(lang) else {
        return CATEGORIES.to_vec();
    };
    // Every rule of CLDR's repeats within the first thousand whole numbers (and the millions of
    // French, Spanish and Italian's `many`).
    let mut seen: Vec<&'static str> = (0..1000)
        .chain([1_000_000, 2_000_000])
        .map(|n| select(&rules, n))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    CATEGORIES
        .iter()
        .copied()
        .filter(|c| seen.contains(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plural(forms: &[(&'static str, &str)]) -> Text {
        Text::Plural(
            forms
                .iter()
                .map(|(c, t)| (*c, Template::parse(t).unwrap()))
                .collect(),
        )
    }

    #[test]
    fn arguments_are_filled_and_a_missing_one_stays_visible() {
        let t = Text::One(Template::parse("{who} finds {count} gold {{sic}}").unwrap());
        assert_eq!(
            t.render("en", &[("who", "Ada".into()), ("count", (-300).into())]),
            Ok("Ada finds -300 gold {sic}".to_string())
        );
        assert_eq!(
            t.render("en", &[]),
            Ok("{who} finds {count} gold {sic}".to_string())
        );
        assert_eq!(t.args(), ["count", "who"]);
    }

    #[test]
    fn a_text_too_long_with_its_arguments_is_measured_not_made() {
        let t = Text::One(Template::parse(&"{a}".repeat(100_000)).unwrap());
        let a = TextArg::Str("x".repeat(100_000));
        assert_eq!(t.render("en", &[("a", a)]), Err(10_000_000_000));
        let fits = TextArg::Str("x".repeat(10));
        assert_eq!(
            t.render("en", &[("a", fits)]).map(|s| s.len()),
            Ok(1_000_000)
        );
        for n in [0i64, 9, 10, -1, -10, i64::MAX, i64::MIN] {
            assert_eq!(TextArg::Num(n).len(), n.to_string().len(), "{n}");
        }
    }

    /// Random templates (pieces of every kind, braces and all) filled with random arguments:
    /// parsing says what is wrong or reads them, and what is rendered is exactly as long as was
    /// measured first, or refused unmade past the bound.
    #[test]
    fn random_templates_render_as_long_as_they_measure() {
        // Seeded, so every run makes the same cases.
        let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(11);
        let mut next =
            |n: usize| (rand_core::RngCore::next_u64(&mut rng) % n.max(1) as u64) as usize;
        let pieces = [
            "{a}", "{b}", "{count}", "{{", "}}", "x", "é", " ", "{", "}", "{A}", "\n",
        ];
        for _ in 0..2_000 {
            let template: String = (0..next(40)).map(|_| pieces[next(pieces.len())]).collect();
            let Ok(t) = Template::parse(&template) else {
                continue;
            };
            let long = "y".repeat(next(3) * 600_000);
            let args = [
                ("a", TextArg::Str(long)),
                ("count", TextArg::Num(next(1000) as i64 - 500)),
            ];
            let measured = t.rendered_len(&args);
            match Text::One(t).render("en", &args) {
                Ok(text) => assert_eq!(text.len(), measured, "{template:?}"),
                Err(len) => assert!(len == measured && len > MOST_RENDERED, "{template:?}"),
            }
        }
    }

    #[test]
    fn malformed_templates_say_what_is_wrong() {
        assert!(Template::parse("{count rats")
            .unwrap_err()
            .contains("not closed"));
        assert!(Template::parse("{Count}")
            .unwrap_err()
            .contains("not an argument"));
        assert!(Template::parse("a } b")
            .unwrap_err()
            .contains("closes nothing"));
    }

    #[test]
    fn plural_forms_follow_each_languages_rules() {
        let en = plural(&[
            ("one", "{count} rat remains"),
            ("other", "{count} rats remain"),
        ]);
        assert_eq!(
            en.render("en", &[("count", 1.into())]).unwrap(),
            "1 rat remains"
        );
        assert_eq!(
            en.render("en", &[("count", 4.into())]).unwrap(),
            "4 rats remain"
        );
        let pl = plural(&[
            ("one", "{count} szczur"),
            ("few", "{count} szczury"),
            ("many", "{count} szczurów"),
            ("other", "{count} szczura"),
        ]);
        assert_eq!(
            pl.render("pl", &[("count", 3.into())]).unwrap(),
            "3 szczury"
        );
        assert_eq!(
            pl.render("pl", &[("count", 5.into())]).unwrap(),
            "5 szczurów"
        );
        // Chinese has no plural forms: every count is `other`.
        assert_eq!(category("zh-Hans", 1), "other");
        assert_eq!(categories("en"), ["one", "other"]);
        assert_eq!(categories("de-AT"), ["one", "other"]);
    }
}
