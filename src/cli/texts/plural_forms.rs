//! gettext's plural forms beside CLDR's: a PO file numbers a text's forms (`msgstr[0]`,
//! `msgstr[1]`) by the formula of its `Plural-Forms` header, lantern names them by CLDR category
//! (`one`, `few`). `header` writes a language's formula from CLDR's rules, its forms numbered in
//! CLDR's order; `Formula` reads the formula a platform wrote back (each has its own for a
//! language) and names each of its numbers by the category its counts take.

use crate::content::locale::{categories, category};

/// `nplurals=N; plural=(...);` for `lang`: form `i` is the `i`-th category whole counts take.
pub(super) fn header(lang: &str) -> String {
    let cats = categories(lang);
    let of = |n: u64| {
        let c = category(lang, n as i64);
        cats.iter().position(|k| *k == c).unwrap_or(cats.len() - 1)
    };
    let expr = expression(&of);
    // A formula of one condition list is in parentheses already, as gettext writes them.
    let expr = if expr.starts_with('(') || expr.len() == 1 {
        expr
    } else {
        format!("({expr})")
    };
    format!("nplurals={}; plural={expr};", cats.len())
}

/// A formula for `of` over whole counts, from its values below 200 and at a million: CLDR's
/// integer rules look at `n`, `n % 10`, `n % 100` and (French, Spanish, Italian, Portuguese's
/// `many`) `n % 1000000`; the tests hold it for every language CLDR knows.
fn expression(of: &dyn Fn(u64) -> usize) -> String {
    let small: Vec<usize> = (0..100).map(of).collect();
    let big: Vec<usize> = (100..200).map(of).collect();
    let hundreds = table("n%100", &big);
    let mut expr = if small == big {
        hundreds
    } else if big.iter().all(|v| *v == big[0]) && default_of(&small) == big[0] {
        // The exceptions are all below 100 and every larger count takes the default.
        table("n", &small)
    } else {
        format!("n<100 ? {} : {hundreds}", table("n", &small))
    };
    let million = of(1_000_000);
    if million != big[0] {
        expr = format!("n!=0 && n%1000000==0 ? {million} : {expr}");
    }
    // Cornish names thousands by `n % 100000` and `n % 1000000`: whole thousands by their own
    // table, when the formula so far misses one.
    let so_far = Formula::parse(&format!("nplurals=6; plural={expr};")).ok();
    let thousand = |k: u64| of(k * 1000);
    if (1..=1000).any(|k| so_far.as_ref().and_then(|f| f.form(k * 1000)) != Some(thousand(k))) {
        let by_k: Vec<usize> = (0..1000)
            .map(|k| thousand(if k == 0 { 1000 } else { k }))
            .collect();
        expr = format!(
            "n!=0 && n%1000==0 ? {} : {expr}",
            runs("n/1000%1000", 0, &by_k)
        );
    }
    expr
}

/// The value most of `values` take.
fn default_of(values: &[usize]) -> usize {
    let most = values.iter().max().copied().unwrap_or(0);
    (0..=most)
        .max_by_key(|v| (values.iter().filter(|x| *x == v).count(), usize::MAX - v))
        .unwrap_or(0)
}

/// `values` (indexed by `var`'s value, 0 to 99) as a formula: by the last digit with the teens
/// apart when that is the shape (Slavic languages), else by runs of equal values.
fn table(var: &str, values: &[usize]) -> String {
    let units = &values[..10];
    let by_units = (0..values.len())
        .filter(|m| !(10..20).contains(m))
        .all(|m| values[m] == units[m % 10]);
    if values.len() == 100 && by_units && units.iter().any(|u| *u != units[0]) {
        let teens = runs(var, 10, &values[10..20]);
        // `n % 10` is the last digit whether `var` is `n` (below 100) or `n % 100`.
        return format!(
            "{var}>=10 && {var}<=19 ? {teens} : {}",
            runs("n%10", 0, units)
        );
    }
    runs(var, 0, values)
}

/// `values` (of `var` from `base` on) as `cond ? v : ... : default`, one condition per run of a
/// value other than the most common.
fn runs(var: &str, base: usize, values: &[usize]) -> String {
    let default = default_of(values);
    let mut expr = String::new();
    let mut start = 0;
    while start < values.len() {
        let mut end = start;
        while end + 1 < values.len() && values[end + 1] == values[start] {
            end += 1;
        }
        if values[start] != default {
            let (s, e) = (base + start, base + end);
            let cond = if s == e {
                format!("{var}=={s}")
            } else if s == 0 {
                format!("{var}<={e}")
            } else {
                format!("{var}>={s} && {var}<={e}")
            };
            expr.push_str(&format!("{cond} ? {} : ", values[start]));
        }
        start = end + 1;
    }
    if expr.is_empty() {
        return default.to_string();
    }
    format!("({expr}{default})")
}

/// A PO file's plural formula, parsed: C's integer expressions over `n`.
#[derive(Debug)]
pub(super) struct Formula {
    forms: usize,
    expr: Expr,
}

#[derive(Debug)]
enum Expr {
    N,
    Num(u64),
    Not(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// How deep a formula's parentheses and conditions may nest: a platform's are a few deep; a
/// file's deeper nesting is refused rather than followed.
const MOST_NESTED: usize = 64;

/// The counts a formula is tried on to name its forms: every count up to 1,000 and a few
/// millions, where CLDR's rules all show each of their categories.
fn sample_counts() -> impl Iterator<Item = u64> {
    (0..=1000).chain([1_000_000, 2_000_000, 1_000_001])
}

impl Formula {
    /// Reads `nplurals=N; plural=EXPR;`; what is wrong with it otherwise.
    pub(super) fn parse(header: &str) -> Result<Formula, String> {
        let mut forms = None;
        let mut expr = None;
        for part in header.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((k, v)) if k.trim() == "nplurals" => {
                    let n: usize = (v.trim().parse().ok())
                        .filter(|n| (1..=6).contains(n))
                        .ok_or_else(|| {
                            format!("`nplurals={}` is not a number from 1 to 6", v.trim())
                        })?;
                    forms = Some(n);
                }
                Some((k, v)) if k.trim() == "plural" => {
                    let mut p = Parser {
                        s: v.as_bytes(),
                        at: 0,
                        depth: 0,
                    };
                    let e = p.ternary()?;
                    p.space();
                    if p.at != p.s.len() {
                        return Err(format!("the formula has `{}` after its end", &v[p.at..]));
                    }
                    expr = Some(e);
                }
                _ => {}
            }
        }
        match (forms, expr) {
            (Some(forms), Some(expr)) => Ok(Formula { forms, expr }),
            _ => Err("a `Plural-Forms` header is `nplurals=N; plural=FORMULA;`".into()),
        }
    }

    /// The form a count takes (`None` when the formula divides by zero or leaves the forms).
    fn form(&self, n: u64) -> Option<usize> {
        let i = eval(&self.expr, n)?;
        usize::try_from(i).ok().filter(|i| *i < self.forms)
    }

    /// The CLDR category of each of the formula's forms in `lang`: the category of the counts
    /// that take it (`None` for a form no count takes).
    pub(super) fn categories(&self, lang: &str) -> Vec<Option<&'static str>> {
        let mut named = vec![None; self.forms];
        for n in sample_counts() {
            if let Some(i) = self.form(n) {
                named[i].get_or_insert(category(lang, n as i64));
            }
        }
        named
    }
}

fn eval(e: &Expr, n: u64) -> Option<u64> {
    Some(match e {
        Expr::N => n,
        Expr::Num(v) => *v,
        Expr::Not(a) => u64::from(eval(a, n)? == 0),
        Expr::If(c, a, b) => {
            if eval(c, n)? != 0 {
                eval(a, n)?
            } else {
                eval(b, n)?
            }
        }
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a, n)?, eval(b, n)?);
            match op {
                Op::Or => u64::from(a != 0 || b != 0),
                Op::And => u64::from(a != 0 && b != 0),
                Op::Eq => u64::from(a == b),
                Op::Ne => u64::from(a != b),
                Op::Lt => u64::from(a < b),
                Op::Le => u64::from(a <= b),
                Op::Gt => u64::from(a > b),
                Op::Ge => u64::from(a >= b),
                Op::Add => a.wrapping_add(b),
                Op::Sub => a.wrapping_sub(b),
                Op::Mul => a.wrapping_mul(b),
                Op::Div => a.checked_div(b)?,
                Op::Rem => a.checked_rem(b)?,
            }
        }
    })
}

/// A recursive descent over C's precedence: `?:`, `||`, `&&`, equality, comparison, `+ -`,
/// `* / %`, `!` and parentheses.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.space();
        if self.s[self.at..].starts_with(token.as_bytes()) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn ternary(&mut self) -> Result<Expr, String> {
        self.depth += 1;
        if self.depth > MOST_NESTED {
            return Err(format!("the formula nests deeper than {MOST_NESTED}"));
        }
        let cond = self.binary(0)?;
        let e = if self.eat("?") {
            let a = self.ternary()?;
            if !self.eat(":") {
                return Err("a `?` of the formula has no `:`".into());
            }
            let b = self.ternary()?;
            Expr::If(Box::new(cond), Box::new(a), Box::new(b))
        } else {
            cond
        };
        self.depth -= 1;
        Ok(e)
    }

    /// Operators by precedence, loosest first.
    const LEVELS: [&'static [(&'static str, Op)]; 6] = [
        &[("||", Op::Or)],
        &[("&&", Op::And)],
        &[("==", Op::Eq), ("!=", Op::Ne)],
        &[("<=", Op::Le), (">=", Op::Ge), ("<", Op::Lt), (">", Op::Gt)],
        &[("+", Op::Add), ("-", Op::Sub)],
        &[("*", Op::Mul), ("/", Op::Div), ("%", Op::Rem)],
    ];

    fn binary(&mut self, level: usize) -> Result<Expr, String> {
        let Some(ops) = Self::LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1)?;
        'more: loop {
            for (token, op) in ops.iter() {
                // `!=` is not `!` and `<=` is not `<`: the longer tokens come first in a level.
                if self.eat(token) {
                    let right = self.binary(level + 1)?;
                    left = Expr::Bin(*op, Box::new(left), Box::new(right));
                    continue 'more;
                }
            }
            return Ok(left);
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat("!") {
            self.depth += 1;
            if self.depth > MOST_NESTED {
                return Err(format!("the formula nests deeper than {MOST_NESTED}"));
            }
            let e = Expr::Not(Box::new(self.unary()?));
            self.depth -= 1;
            return Ok(e);
        }
        if self.eat("(") {
            let e = self.ternary()?;
            if !self.eat(")") {
                return Err("a `(` of the formula is not closed".into());
            }
            return Ok(e);
        }
        self.space();
        if self.eat("n") {
            return Ok(Expr::N);
        }
        let start = self.at;
        while self.s.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
        match digits.parse() {
            Ok(v) => Ok(Expr::Num(v)),
            Err(_) => Err(match self.s.get(self.at) {
                Some(_) => format!(
                    "the formula has `{}` where a number, `n` or `(` goes",
                    crate::diag::visible(&String::from_utf8_lossy(&self.s[self.at..]))
                ),
                None => "the formula ends where a number, `n` or `(` goes".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every language CLDR knows: the written formula numbers each count's category as
    /// `categories` orders them, and reads back to the same categories.
    #[test]
    fn each_language_formula_gives_cldr_categories() {
        use intl_pluralrules::{PluralRuleType, PluralRules};
        let counts: Vec<u64> = (0..=20_000).chain((1..=5).map(|m| m * 1_000_000)).collect();
        for id in PluralRules::get_locales(PluralRuleType::CARDINAL) {
            let lang = id.to_string();
            let cats = categories(&lang);
            let written = header(&lang);
            let formula = Formula::parse(&written).unwrap_or_else(|e| panic!("{lang}: {e}"));
            for &n in &counts {
                let form = formula.form(n).unwrap();
                assert_eq!(
                    cats[form],
                    category(&lang, n as i64),
                    "{lang} at {n}: {written}"
                );
            }
            let named: Vec<_> = formula.categories(&lang).into_iter().flatten().collect();
            assert_eq!(named, cats, "{lang}");
        }
    }

    #[test]
    fn familiar_languages_read_as_they_are_written_by_hand() {
        assert_eq!(header("en"), "nplurals=2; plural=(n==1 ? 0 : 1);");
        assert_eq!(header("ja"), "nplurals=1; plural=0;");
        assert_eq!(
            header("ru"),
            "nplurals=3; plural=(n%100>=10 && n%100<=19 ? 2 : (n%10==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2));"
        );
    }

    /// A platform writes its own formula for a language; its forms are named by the counts
    /// that take them.
    #[test]
    fn a_platforms_formula_names_its_forms() {
        let weblate_pl =
            "nplurals=3; plural=n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2;";
        let f = Formula::parse(weblate_pl).unwrap();
        assert_eq!(f.categories("pl"), [Some("one"), Some("few"), Some("many")]);
        let gettext_fr = "nplurals=2; plural=(n > 1);";
        assert_eq!(
            Formula::parse(gettext_fr).unwrap().categories("fr"),
            [Some("one"), Some("other")]
        );
    }

    #[test]
    fn a_broken_formula_says_what_is_wrong() {
        let err = |h: &str| Formula::parse(h).unwrap_err();
        assert!(err("nplurals=2; plural=(n > );").contains("the formula has `)`"));
        assert!(err("nplurals=2; plural=(n != 1").contains("not closed"));
        assert!(err("nplurals=9; plural=0;").contains("from 1 to 6"));
        assert!(err("plural=0;").contains("nplurals=N"));
        let deep = format!(
            "nplurals=2; plural={}n{};",
            "(".repeat(10_000),
            ")".repeat(10_000)
        );
        assert!(err(&deep).contains("nests deeper"));
        let f = Formula::parse("nplurals=2; plural=n/0;").unwrap();
        assert_eq!(
            f.categories("en"),
            [None, None],
            "a division by zero takes no form"
        );
    }
}
