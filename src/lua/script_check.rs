//! Reading a mod's scripts without running them, to report at load what would otherwise fail only
//! when a handler runs: for literal event names and payload tables in `lantern.emit_event`, literal
//! action tables in `lantern.apply`, `ev.<field>` reads in a `lantern.on` handler of a known
//! event, and a `lantern.<name>(...)` call of a name the mod's `lantern` table does not hold
//! (`lantern.emit` for `emit_event`), the same message the runtime would give, at the file and
//! line, with "did you mean".
//!
//! Scripts are parsed with `full_moon`, a Lua 5.4 parser. Only what is written as a literal is
//! judged: a name or a table built at run time is the runtime's to check. A handler whose `ev` is
//! shadowed (`local ev`, a nested function taking `ev`) is left alone rather than guessed at.

use crate::content::locale::check::{ScriptTexts, TextUse};
use crate::content::resolve::Symbols;
use crate::content::{Content, EventKey, EventTable, Value};
use crate::diag::Code;
use crate::diag::{Diagnostic, FileId, Span};
use full_moon::ast::{
    BinOp, Call, Expression, Field, FunctionArgs, FunctionBody, FunctionCall, Index,
    LocalAssignment, Parameter, Prefix, Suffix, TableConstructor, Var, VarExpression,
};
use full_moon::tokenizer::{Symbol, TokenReference, TokenType};
use full_moon::visitors::{Visit, Visitor};
use std::collections::{BTreeMap, BTreeSet};

/// One script of a mod, as it was read at load.
pub(super) struct Script<'a> {
    pub(crate) mod_id: &'a str,
    pub(crate) file: FileId,
    pub(crate) text: &'a str,
    /// The names in its `lantern` table after it ran: a literal `lantern.<name>(...)` call names
    /// one of them, or fails when it runs.
    pub(crate) lantern: std::collections::BTreeSet<String>,
    /// Every function the mods expose (`weather:forecast`).
    pub(crate) exposed: &'a BTreeSet<String>,
    /// What a literal `lantern.call` of this script may name.
    pub(crate) calls: Calls<'a>,
}

/// The mods a script's mod may call (its `depends` and `optional`), and the mods whose scripts
/// failed, whose exposed functions are unknown.
pub(crate) struct Calls<'a> {
    pub(crate) deps: &'a [String],
    pub(crate) failed: &'a BTreeSet<String>,
}

/// Every problem the scripts' literal calls would raise when they run, and a warning for each
/// trigger and quest that waits on a custom event nothing emits.
pub(super) fn check<'s>(
    scripts: &[Script<'_>],
    content: &Content,
    symbols: &dyn Fn() -> &'s Symbols,
) -> Vec<Diagnostic> {
    let events = &content.events;
    let mut diags = Vec::new();
    let mut emits = Emits::default();
    let mut texts = ScriptTexts::default();
    for script in scripts {
        let parsed = full_moon::parse_fallible(script.text, full_moon::LuaVersion::lua54());
        // A script that does not parse has been reported by Lua itself, at its line; what it
        // would emit cannot be known.
        if !parsed.errors().is_empty() {
            emits.unknown = true;
            texts.dynamic.insert(script.mod_id.to_string());
            continue;
        }
        let mut calls = Literals {
            script,
            events,
            symbols,
            diags: &mut diags,
            emits: &mut emits,
            literal_emits: 0,
            texts: &mut texts,
            literal_texts: 0,
        };
        calls.visit_ast(parsed.ast());
        let (literal_texts, literal_emits) = (calls.literal_texts, calls.literal_emits);
        // `lantern.text` named anywhere else (`local t = lantern.text`) may name any text.
        if script.text.matches("lantern.text").count() > literal_texts {
            texts.dynamic.insert(script.mod_id.to_string());
        }
        // `emit_event` named anywhere else (`local emit = lantern.emit_event`) may emit anything.
        if script.text.matches("emit_event").count() > literal_emits {
            emits.unknown = true;
        }
    }
    if !emits.unknown {
        diags.extend(never_emitted(content, &emits.events));
    }
    diags.extend(crate::content::locale::check::check(content, &texts));
    diags
}

/// The custom events the scripts emit by a literal name, and whether one may emit others.
#[derive(Default)]
struct Emits {
    events: BTreeSet<EventKey>,
    unknown: bool,
}

/// A warning for each trigger and quest waiting on a mod's custom event that no `emit_event`
/// action of the data and no script emits: it can never fire or count.
fn never_emitted(content: &Content, by_scripts: &BTreeSet<EventKey>) -> Vec<Diagnostic> {
    let silent = |key: EventKey| {
        content.events.get(key).span.is_some()
            && !content.emitted.contains(&key)
            && !by_scripts.contains(&key)
    };
    let warn = |what: String, key: EventKey, span: Span| {
        let name = &content.events.get(key).name;
        let bare = name.split_once(':').map_or(name.as_str(), |(_, n)| n);
        let never = if what.starts_with("quest") {
            "counts"
        } else {
            "fires"
        };
        Diagnostic::warning(
            Code::ContentRule,
            format!("{what} waits on `{name}`, which nothing emits, so it never {never}"),
        )
        .at(span)
        .with_help(format!(
            "emit it from a script (`lantern.emit_event(\"{bare}\")`) or an action (`{{ action = \"emit_event\", event = \"{name}\" }}`)"
        ))
    };
    let mut out: Vec<Diagnostic> = content
        .triggers
        .iter()
        .filter(|t| silent(t.on))
        .map(|t| {
            let what =
                t.id.as_ref()
                    .map_or("trigger".to_string(), |id| format!("trigger `{id}`"));
            warn(what, t.on, t.span)
        })
        .collect();
    out.extend(
        content
            .quests
            .values()
            .filter(|q| silent(q.on))
            .map(|q| warn(format!("quest `{}`", q.id), q.on, q.span)),
    );
    out
}

struct Literals<'a, 'b, 's> {
    script: &'a Script<'a>,
    events: &'a EventTable,
    /// The symbols a literal action table is resolved against, made when first asked for.
    symbols: &'a dyn Fn() -> &'s Symbols,
    diags: &'b mut Vec<Diagnostic>,
    emits: &'b mut Emits,
    /// The literal `lantern.emit_event(...)` calls read in this script.
    literal_emits: usize,
    texts: &'b mut ScriptTexts,
    /// The `lantern.text(...)` calls read in this script.
    literal_texts: usize,
}

impl Visitor for Literals<'_, '_, '_> {
    fn visit_var_expression(&mut self, var: &VarExpression) {
        self.setting_read(var);
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        let Some((name, token, args)) = lantern_call(call) else {
            return;
        };
        match name.as_str() {
            "emit_event" => self.emit_event(&args),
            "apply" => self.apply(&args),
            "on" => self.on(&args),
            "text" => self.text(&args),
            "call" => self.call(&args),
            _ if !self.script.lantern.is_empty() && !self.script.lantern.contains(&name) => {
                let names = self.script.lantern.iter().map(String::as_str);
                let help = crate::diag::did_you_mean_suffix(&name, names);
                self.error(
                    token,
                    format!("`lantern.{name}` is not a function of lantern's{help}"),
                );
            }
            _ => {}
        }
    }
}

impl Literals<'_, '_, '_> {
    /// `lantern.settings.<name>` or `lantern.settings["mod:name"]`: the setting is declared.
    fn setting_read(&mut self, var: &VarExpression) {
        let Prefix::Name(base) = var.prefix() else {
            return;
        };
        let mut suffixes = var.suffixes();
        let Some(Suffix::Index(Index::Dot { name, .. })) = suffixes.next() else {
            return;
        };
        if identifier(base) != "lantern" || identifier(name) != "settings" {
            return;
        }
        let (key, token) = match suffixes.next() {
            Some(Suffix::Index(Index::Dot { name, .. })) => (identifier(name), name),
            Some(Suffix::Index(Index::Brackets { expression, .. })) => {
                match string_of(expression) {
                    Some(found) => found,
                    None => return,
                }
            }
            _ => return,
        };
        let own = self.script.mod_id;
        let id = if key.contains(':') {
            key.clone()
        } else {
            format!("{own}:{key}")
        };
        let settings = &(self.symbols)().settings;
        if settings.contains_key(id.as_str()) {
            return;
        }
        let help = crate::diag::did_you_mean_suffix(&id, settings.keys().map(|k| k.as_str()));
        self.error(
            token,
            format!(
                "lantern.settings: there is no setting `{}`{help}",
                crate::diag::shown(&id)
            ),
        );
    }

    /// `lantern.call("weather:forecast", ...)`: a mod this one depends on exposes it.
    fn call(&mut self, args: &[&Expression]) {
        let Some((name, token)) = args.first().and_then(|a| string_of(a)) else {
            return;
        };
        let own = self.script.mod_id;
        let (callee, _) = name.split_once(':').unwrap_or((own, &name));
        let id = if name.contains(':') {
            name.clone()
        } else {
            format!("{own}:{name}")
        };
        let calls = &self.script.calls;
        if callee != own && !calls.deps.iter().any(|d| d == callee) {
            let span = self.span(token);
            self.diags.push(
                Diagnostic::warning(
                    Code::Dependency,
                    format!("`{own}` calls `{}` but does not depend on `{}`", crate::diag::shown(&id), crate::diag::shown(callee)),
                )
                .at(span)
                .with_help(format!(
                    "add `{}` to `depends` in `{own}`'s mod.toml (or to `optional`, if the mod works without it): the call fails when it runs",
                    crate::diag::shown(callee)
                )),
            );
            return;
        }
        if calls.failed.contains(callee) || self.script.exposed.contains(&id) {
            return;
        }
        let names = self.script.exposed.iter().map(String::as_str);
        let help = crate::diag::did_you_mean_suffix(&id, names);
        self.error(
            token,
            format!(
                "lantern.call(\"{}\"): no mod exposes `{}`{help}",
                crate::diag::shown(&name),
                crate::diag::shown(&id)
            ),
        );
    }

    fn span(&self, token: &TokenReference) -> Span {
        Span::new(
            self.script.file,
            token.start_position().bytes()..token.end_position().bytes(),
        )
    }

    fn error(&mut self, token: &TokenReference, message: String) {
        let span = self.span(token);
        self.diags
            .push(Diagnostic::error(Code::ScriptCheck, message).at(span));
    }

    /// `lantern.emit_event("name", { field = value })`: the event is declared, and each literal
    /// field is one of its payload's, of its type.
    fn emit_event(&mut self, args: &[&Expression]) {
        self.literal_emits += 1;
        let Some((event, at)) = args.first().and_then(|e| string_of(e)) else {
            self.emits.unknown = true;
            return;
        };
        let Some(kind) = self
            .events
            .lookup_for(self.script.mod_id.as_bytes(), event.as_bytes())
        else {
            let help = crate::diag::did_you_mean(&event, self.events.names())
                .unwrap_or_else(|| "declare it with [[event_types]]".into());
            self.error(
                at,
                format!("lantern.emit_event: unknown event `{event}`; {help}"),
            );
            return;
        };
        self.emits.events.insert(kind);
        let def = self.events.get(kind);
        let Some(Expression::TableConstructor(table)) = args.get(1) else {
            return;
        };
        for field in table.fields() {
            let Field::NameKey { key, value, .. } = field else {
                continue;
            };
            let name = identifier(key);
            let Some((_, ty)) = def.field(&name) else {
                let names: Vec<&str> = def.payload.iter().map(|(n, _)| n.as_str()).collect();
                let help = crate::diag::did_you_mean_suffix(&name, names.iter().copied());
                let list = if help.is_empty() {
                    format!(" (it has: {})", names.join(", "))
                } else {
                    help
                };
                self.error(
                    key,
                    format!(
                        "lantern.emit_event: event `{}` has no payload field `{name}`{list}",
                        def.name
                    ),
                );
                continue;
            };
            if let Some((v, token)) = literal(value) {
                if !v.fits(ty) {
                    let what = type_name(&v);
                    self.error(
                        token,
                        format!(
                            "lantern.emit_event: `{name}` of `{}` must be of type `{}`, not `{what}`",
                            def.name,
                            ty.name()
                        ),
                    );
                }
            }
        }
    }

    /// `lantern.text("key", { name = value })`: the text, and the arguments given when they are
    /// written as a table.
    fn text(&mut self, args: &[&Expression]) {
        self.literal_texts += 1;
        let Some((key, at)) = args.first().and_then(|e| string_of(e)) else {
            self.texts.dynamic.insert(self.script.mod_id.to_string());
            return;
        };
        let (ns, key) = match key.split_once(':') {
            Some((ns, key)) => (ns.to_string(), key.to_string()),
            None => (self.script.mod_id.to_string(), key),
        };
        let given = match args.get(1) {
            None => Some(Vec::new()),
            Some(Expression::TableConstructor(table)) => table
                .fields()
                .iter()
                .map(|f| match f {
                    Field::NameKey { key, .. } => Some(identifier(key)),
                    _ => None,
                })
                .collect(),
            Some(_) => None,
        };
        let at = self.span(at);
        self.texts.uses.push(TextUse {
            ns,
            key,
            args: given,
            at,
        });
    }

    /// `lantern.apply({ action = "...", ... })` written wholly in literals: validated as the runtime
    /// (and a TOML action) would be.
    fn apply(&mut self, args: &[&Expression]) {
        let Some(Expression::TableConstructor(table)) = args.first() else {
            return;
        };
        let Some((map, at)) = literal_table(table) else {
            return;
        };
        if let Err(e) = crate::content::resolve::runtime_action(
            (self.symbols)(),
            self.events,
            self.script.mod_id,
            &map.into(),
        ) {
            self.error(at, format!("lantern.apply: {e}"));
        }
    }

    /// `lantern.on("event", function(ev) ... end)`: every `ev.<field>` the handler reads is a field
    /// of that event.
    fn on(&mut self, args: &[&Expression]) {
        let Some((event, _)) = args.first().and_then(|e| string_of(e)) else {
            return;
        };
        let Some(Expression::Function(function)) = args.get(1) else {
            return;
        };
        // An event that is not one is reported when the handlers are bound.
        let Some(kind) = self
            .events
            .lookup_for(self.script.mod_id.as_bytes(), event.as_bytes())
        else {
            return;
        };
        let body = function.body();
        let Some(Parameter::Name(param)) = body.parameters().iter().next() else {
            return;
        };
        let ev = identifier(param);
        let mut reads = Reads {
            name: &ev,
            fields: Vec::new(),
            compared: Vec::new(),
            shadowed: false,
        };
        body.block().visit(&mut reads);
        if reads.shadowed {
            return;
        }
        let def = self.events.get(kind);
        let mut known: Vec<String> = ["name", "source", "target"].map(String::from).to_vec();
        known.extend(def.payload.iter().map(|(n, _)| n.clone()));
        for (field, text, token) in &reads.compared {
            let is_id = def.payload.iter().any(|(n, ty)| n == field && ty.is_id());
            if is_id && !text.contains(':') && crate::id::is_ident(text) {
                let full = format!("{}:{text}", self.script.mod_id);
                let span = self.span(token);
                self.diags.push(
                    Diagnostic::warning(
                        Code::ScriptCheck,
                        format!(
                            "`{ev}.{field}` holds a full ID (`mod:name`), so it never equals \
                             the bare name \"{text}\""
                        ),
                    )
                    .at(span)
                    .with_help(format!(
                        "compare with the full ID: \"{full}\" if it is your mod's"
                    )),
                );
            }
        }
        for (field, token) in reads.fields {
            if !known.contains(&field) {
                let mut help =
                    crate::diag::did_you_mean_suffix(&field, known.iter().map(String::as_str));
                if help.is_empty() {
                    help = format!(" (it has: {})", known.join(", "));
                }
                self.error(
                    &token,
                    format!("event `{}` has no field `{field}`{help}", def.name),
                );
            }
        }
    }
}

/// The fields read as `<name>.<field>` in a handler's body, and the ones compared with a
/// string written in it (`ev.item == "gold"`).
struct Reads<'a> {
    name: &'a str,
    fields: Vec<(String, TokenReference)>,
    compared: Vec<(String, String, TokenReference)>,
    shadowed: bool,
}

impl Reads<'_> {
    /// The field `e` reads when it is `<name>.<field>` and nothing more.
    fn field_of(&self, e: &Expression) -> Option<String> {
        let Expression::Var(Var::Expression(var)) = e else {
            return None;
        };
        let Prefix::Name(n) = var.prefix() else {
            return None;
        };
        let mut suffixes = var.suffixes();
        match (suffixes.next(), suffixes.next()) {
            (Some(Suffix::Index(Index::Dot { name, .. })), None) if identifier(n) == self.name => {
                Some(identifier(name))
            }
            _ => None,
        }
    }

    fn read(&mut self, prefix: &Prefix, mut suffixes: std::slice::Iter<'_, Suffix>) {
        if let (Prefix::Name(n), Some(Suffix::Index(Index::Dot { name, .. }))) =
            (prefix, suffixes.next())
        {
            if identifier(n) == self.name {
                self.fields.push((identifier(name), name.clone()));
            }
        }
    }
}

impl Visitor for Reads<'_> {
    fn visit_expression(&mut self, e: &Expression) {
        let Expression::BinaryOperator { lhs, binop, rhs } = e else {
            return;
        };
        if !matches!(binop, BinOp::TwoEqual(_) | BinOp::TildeEqual(_)) {
            return;
        }
        for (side, other) in [(lhs, rhs), (rhs, lhs)] {
            if let (Some(field), Some((text, token))) = (self.field_of(side), string_of(other)) {
                self.compared.push((field, text, token.clone()));
            }
        }
    }

    fn visit_var_expression(&mut self, var: &VarExpression) {
        let suffixes: Vec<Suffix> = var.suffixes().cloned().collect();
        self.read(var.prefix(), suffixes.iter());
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        let suffixes: Vec<Suffix> = call.suffixes().cloned().collect();
        self.read(call.prefix(), suffixes.iter());
    }

    fn visit_local_assignment(&mut self, local: &LocalAssignment) {
        if local.names().iter().any(|n| identifier(n) == self.name) {
            self.shadowed = true;
        }
    }

    fn visit_function_body(&mut self, body: &FunctionBody) {
        let takes = body
            .parameters()
            .iter()
            .any(|p| matches!(p, Parameter::Name(n) if identifier(n) == self.name));
        if takes {
            self.shadowed = true;
        }
    }
}

/// `lantern.<name>(args)`: the name and the arguments, for a direct call of the API.
fn lantern_call(call: &FunctionCall) -> Option<(String, &TokenReference, Vec<&Expression>)> {
    let Prefix::Name(base) = call.prefix() else {
        return None;
    };
    if identifier(base) != "lantern" {
        return None;
    }
    let mut suffixes = call.suffixes();
    let Some(Suffix::Index(Index::Dot { name, .. })) = suffixes.next() else {
        return None;
    };
    let Some(Suffix::Call(Call::AnonymousCall(args))) = suffixes.next() else {
        return None;
    };
    if suffixes.next().is_some() {
        return None;
    }
    let args: Vec<&Expression> = match args.as_ref() {
        FunctionArgs::Parentheses { arguments, .. } => arguments.iter().collect(),
        _ => return None,
    };
    Some((identifier(name), name, args))
}

fn identifier(token: &TokenReference) -> String {
    match token.token_type() {
        TokenType::Identifier { identifier } => identifier.to_string(),
        _ => token.token().to_string(),
    }
}

/// A string literal's text (escapes as written: only plain names are compared) and its token.
fn string_of(e: &Expression) -> Option<(String, &TokenReference)> {
    match e {
        Expression::String(token) => match token.token_type() {
            TokenType::StringLiteral { literal, .. } if !literal.contains('\\') => {
                Some((literal.to_string(), token))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A literal value as the runtime would see it, and its token.
fn literal(e: &Expression) -> Option<(Value, &TokenReference)> {
    match e {
        Expression::Number(token) => {
            let text = match token.token_type() {
                TokenType::Number { text } => text.to_string(),
                _ => return None,
            };
            let value = match text.parse::<i64>() {
                Ok(i) => Value::Int(i),
                Err(_) => Value::Float(text.parse::<f64>().ok()?),
            };
            Some((value, token))
        }
        Expression::String(_) => string_of(e).map(|(s, t)| (Value::str(&s), t)),
        Expression::Symbol(token) => match token.token_type() {
            TokenType::Symbol {
                symbol: Symbol::True,
            } => Some((Value::Bool(true), token)),
            TokenType::Symbol {
                symbol: Symbol::False,
            } => Some((Value::Bool(false), token)),
            _ => None,
        },
        _ => None,
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "integer",
        Value::Float(_) => "number",
        Value::Bool(_) => "boolean",
        _ => "string",
    }
}

/// An action table written wholly in literals (nested tables too) as the keys of an action entry;
/// `None` when anything in it is computed. The token is the `action` value's, or the table's first.
fn literal_table(
    table: &TableConstructor,
) -> Option<(
    BTreeMap<String, crate::content::spanned::Spanned<toml::Value>>,
    &TokenReference,
)> {
    let mut map = BTreeMap::new();
    let mut at = None;
    for field in table.fields() {
        let Field::NameKey { key, value, .. } = field else {
            return None;
        };
        let name = identifier(key);
        let v = toml_literal(value)?;
        if name == "action" || at.is_none() {
            at = Some(if name == "action" {
                literal(value).map(|(_, t)| t).unwrap_or(key)
            } else {
                key
            });
        }
        map.insert(name, crate::content::spanned::Spanned::new(0..0, v));
    }
    Some((map, at?))
}

fn toml_literal(e: &Expression) -> Option<toml::Value> {
    if let Expression::TableConstructor(t) = e {
        let mut table = toml::Table::new();
        let mut array = Vec::new();
        for field in t.fields() {
            match field {
                Field::NameKey { key, value, .. } => {
                    table.insert(identifier(key), toml_literal(value)?);
                }
                Field::NoKey(value) => array.push(toml_literal(value)?),
                _ => return None,
            }
        }
        return match (table.is_empty(), array.is_empty()) {
            (_, true) => Some(toml::Value::Table(table)),
            (true, false) => Some(toml::Value::Array(array)),
            (false, false) => None,
        };
    }
    Some(match literal(e)?.0 {
        Value::Int(i) => toml::Value::Integer(i),
        Value::Float(f) => toml::Value::Float(f),
        Value::Bool(b) => toml::Value::Boolean(b),
        Value::Str(s) => toml::Value::String(s.to_string()),
    })
}
