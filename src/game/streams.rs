//! The names of the game's random streams, so a name a test writes (`g:stub_rng(0.9, "quest:core:rats")`)
//! can be checked: a stub on a stream nothing draws from would let a test pass by the seed's luck.
//!
//! Every roll draws from a stream named after what rolls: `trigger:<key>`, `quest:<id>`,
//! `ai:<creature>`, `use:<item>`, `talk:<creature>`, `card:<card>`, the encounter and hazard streams
//! (which carry the room's sequence number), a script's `lua:<mod>:<name>`, and the streams of the
//! console's and the harness's own commands (`apply`, `give`, `start`).

use crate::content::Content;
use crate::id::Id;

/// The commands whose actions draw from a stream of their own name.
const COMMANDS: &[&str] = &["apply", "give", "start"];

/// Whether some roll of this content can draw from the stream; if not, what was probably meant.
pub(crate) fn check_stream(content: &Content, name: &str) -> Result<(), String> {
    if let Some(rest) = name.strip_prefix("lua:") {
        let mod_id = rest.split(':').next().unwrap_or_default();
        if rest.len() > mod_id.len() + 1 && content.mods.iter().any(|m| m.id == mod_id) {
            return Ok(());
        }
    }
    let inside = |ids: Vec<&Id>| ids.iter().any(|id| name.contains(&format!(":{id}:")));
    if name.starts_with("encounter:select:")
        || (name.starts_with("encounter:") && inside(content.encounters.keys().collect()))
        || name.starts_with("hazard:select:")
        || (name.starts_with("hazard:") && inside(content.hazards.keys().collect()))
    {
        return Ok(());
    }
    let exact = exact_names(content);
    if exact.iter().any(|n| n == name) {
        return Ok(());
    }
    let help = crate::diag::did_you_mean_suffix(name, exact.iter().map(String::as_str));
    let help = if help.is_empty() {
        "; streams are `trigger:<key>`, `quest:<id>`, `ai:<creature>`, `use:<item>`, `talk:<creature>`, `card:<card>`, `encounter:...`, `hazard:...` and `lua:<mod>:<name>`".to_string()
    } else {
        help
    };
    Err(format!("nothing rolls on a stream `{name}`{help}"))
}

fn exact_names(content: &Content) -> Vec<String> {
    let mut names: Vec<String> = content.triggers.iter().map(|t| t.stream.clone()).collect();
    names.extend(content.quests.values().map(|q| q.stream.clone()));
    for id in content.creatures.keys() {
        names.push(format!("ai:{id}"));
        names.push(format!("talk:{id}"));
    }
    names.extend(content.items.keys().map(|id| format!("use:{id}")));
    names.extend(content.cards.keys().map(|id| format!("card:{id}")));
    names.extend(COMMANDS.iter().map(|c| c.to_string()));
    names
}
