//! Reading the editor schema (`content::schema`) the way an editor does: the node for a table
//! path, the keys a table may hold (a built-in action's own arguments once its `action` is
//! written), the words a value may be, and a key's help. One schema serves Taplo, the stock
//! validators and this server, so what each offers agrees.

use serde_json::Value;

/// A schema with its root, for `$ref`s.
pub(super) struct Schema<'a> {
    root: &'a Value,
}

/// A key a table may hold, with its help.
pub(super) struct KeyDoc {
    pub name: String,
    pub help: Option<String>,
}

impl<'a> Schema<'a> {
    pub(super) fn new(root: &'a Value) -> Schema<'a> {
        Schema { root }
    }

    /// The node a `$ref` names, or the node itself.
    fn deref(&self, node: &'a Value) -> &'a Value {
        let mut node = node;
        for _ in 0..8 {
            let Some(name) = node
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/definitions/"))
            else {
                break;
            };
            match self.root.get("definitions").and_then(|d| d.get(name)) {
                Some(next) => node = next,
                None => break,
            }
        }
        node
    }

    /// The elements' node of an array node, or the node itself.
    fn element(&self, node: &'a Value) -> &'a Value {
        let node = self.deref(node);
        match node.get("items") {
            Some(items) => self.deref(items),
            None => node,
        }
    }

    /// The sub-schemas that apply to a table with these string values written: the table's own,
    /// the `then` of each `if` they match, and each `anyOf` branch.
    fn applying(&self, node: &'a Value, siblings: &[(String, String)]) -> Vec<&'a Value> {
        let node = self.deref(node);
        let mut out = vec![node];
        for branch in node
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let cond = branch
                .get("if")
                .and_then(|i| i.get("properties"))
                .and_then(Value::as_object);
            let matches = cond.is_some_and(|props| {
                props.iter().all(|(key, want)| {
                    let want = want.get("const").and_then(Value::as_str);
                    siblings
                        .iter()
                        .any(|(k, v)| k == key && Some(v.as_str()) == want)
                })
            });
            if matches {
                if let Some(then) = branch.get("then") {
                    out.push(self.deref(then));
                }
            }
        }
        for branch in node
            .get("anyOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.push(self.deref(branch));
        }
        out
    }

    /// The node of the table at `path` (arrays passed through: `["triggers", "actions"]` is an
    /// action); the innermost table's own keys depend on what is written in it (see [`keys`]).
    ///
    /// [`keys`]: Schema::keys
    pub(super) fn table(&self, path: &[String]) -> Option<&'a Value> {
        let mut node = self.root;
        for key in path {
            node = self.element(self.property(node, key, &[])?);
        }
        Some(node)
    }

    /// The node of `key` in a table node.
    pub(super) fn property(
        &self,
        table: &'a Value,
        key: &str,
        siblings: &[(String, String)],
    ) -> Option<&'a Value> {
        self.applying(table, siblings)
            .into_iter()
            .find_map(|n| n.get("properties").and_then(|p| p.get(key)))
    }

    /// The keys a table node may hold, each once, in the schema's order.
    pub(super) fn keys(&self, table: &'a Value, siblings: &[(String, String)]) -> Vec<KeyDoc> {
        let mut out: Vec<KeyDoc> = Vec::new();
        for node in self.applying(table, siblings) {
            let Some(props) = node.get("properties").and_then(Value::as_object) else {
                continue;
            };
            for (name, value) in props {
                let help = self.help(value);
                match out.iter_mut().find(|k| &k.name == name) {
                    Some(k) => {
                        if k.help.is_none() {
                            k.help = help;
                        }
                    }
                    None => out.push(KeyDoc {
                        name: name.clone(),
                        help,
                    }),
                }
            }
        }
        out
    }

    /// A node's help: its `description`.
    pub(super) fn help(&self, node: &'a Value) -> Option<String> {
        let node = self.deref(node);
        node.get("description")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// The words a value node (or its elements) may be: its `enum`, and each `anyOf` branch's.
    pub(super) fn words(&self, node: &'a Value) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.deref(node)];
        while let Some(n) = stack.pop() {
            for v in n
                .get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(s) = v.as_str() {
                    if !out.iter().any(|o| o == s) {
                        out.push(s.to_string());
                    }
                }
            }
            for b in n
                .get("anyOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                stack.push(self.deref(b));
            }
            if let Some(items) = n.get("items") {
                stack.push(self.deref(items));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        crate::content::schema::data_schema_for(crate::test_rules().defs())
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_actions_arguments_follow_its_name() {
        let root = schema();
        let schema = Schema::new(&root);
        let action = schema.table(&s(&["triggers", "actions"])).unwrap();
        let written = vec![("action".to_string(), "give_item".to_string())];
        let keys: Vec<String> = schema
            .keys(action, &written)
            .into_iter()
            .map(|k| k.name)
            .collect();
        assert!(
            keys.contains(&"item".to_string()) && keys.contains(&"count".to_string()),
            "{keys:?}"
        );
        let bare: Vec<String> = schema
            .keys(action, &[])
            .into_iter()
            .map(|k| k.name)
            .collect();
        assert_eq!(bare, ["action"]);
        let names = schema.words(schema.property(action, "action", &[]).unwrap());
        assert!(names.contains(&"give_item".to_string()));
    }

    #[test]
    fn a_tables_keys_carry_their_help_and_values_their_words() {
        let root = schema();
        let schema = Schema::new(&root);
        let creature = schema.table(&s(&["creatures"])).unwrap();
        let keys = schema.keys(creature, &[]);
        let health = keys.iter().find(|k| k.name == "health").unwrap();
        assert_eq!(health.help.as_deref(), Some("maximum and starting health"));
        let damage = schema.property(creature, "damage_type", &[]).unwrap();
        assert!(schema.words(damage).contains(&"fire".to_string()));
        let options = schema.table(&s(&["encounters", "options"])).unwrap();
        assert!(schema
            .keys(options, &[])
            .iter()
            .any(|k| k.name == "probability"));
    }
}
