//! The mods' settings in a running game: every declared setting's value (defaults and a
//! player's choices), read by conditions and scripts, set by a player, a test or the game's menu,
//! kept in the state (so in saves and the state hash) and reconciled when the mods change.

use super::Game;
use crate::content::{Content, Scope, Setting, SettingValue};
use crate::diag::{Code, Diagnostic};
use crate::id::Id;
use crate::Error;

impl Game {
    /// Every setting the mods declare, with its value in this game, in the order
    /// [`Content::settings`] lists them: what a settings menu draws.
    pub fn settings(&self) -> impl Iterator<Item = (&Setting, &SettingValue)> {
        let values = &self.state.settings;
        self.content
            .settings()
            .map(move |s| (s, values.get(&s.id).unwrap_or(&s.default)))
    }

    /// The value of the setting `rats:rat_health` in this game.
    pub fn setting(&self, id: &str) -> Option<&SettingValue> {
        let setting = self.content.setting(id)?;
        Some(
            self.state
                .settings
                .get(&setting.id)
                .unwrap_or(&setting.default),
        )
    }

    /// Sets a setting (`rats:rat_health`, or a name only one mod's setting has) to `value`.
    /// A `startup` setting is fixed once the first turn is taken; `run` and `player` ones change
    /// at any time. [`Error::Refused`] names what is wrong (an unknown setting with the closest
    /// name, a value of the wrong type or out of range), and nothing changes.
    pub fn set_setting(&mut self, id: &str, value: SettingValue) -> Result<(), Error> {
        let setting = find(&self.content, id).map_err(Error::Refused)?;
        if setting.scope == Scope::Startup && self.state.turn > 0 {
            return Err(Error::Refused(format!(
                "`{}` is a startup setting, fixed for a run: start a new game with it (`--set {}={value}`)",
                setting.id, setting.id
            )));
        }
        let value = (setting.kind.admit(value))
            .map_err(|why| Error::Refused(format!("`{}` {why}", setting.id)))?;
        let id = setting.id.clone();
        self.fits_data(&id, &value).map_err(Error::Refused)?;
        self.put_setting(id, value);
        Ok(())
    }

    /// Whether `value` is the one the mods' data was read with, when the data reads setting `id`
    /// (`{ setting = "..." }`): that value is fixed with the content.
    fn fits_data(&self, id: &Id, value: &SettingValue) -> Result<(), String> {
        if !self.content.read_by_data.contains(id) {
            return Ok(());
        }
        let read = self.content.start_settings.get(id).or_else(|| {
            let s = self.content.setting(id.as_str())?;
            Some(&s.default)
        });
        match read {
            Some(read) if read != value => Err(format!(
                "`{id}` is read by the mods' data, which was read with {read}: choose it when the mods load (`--set {id}={value}`)"
            )),
            _ => Ok(()),
        }
    }

    /// [`Game::set_setting`] with the value as a player types it (`20`, `true`, `hard`).
    pub fn set_setting_text(&mut self, id: &str, text: &str) -> Result<(), Error> {
        let setting = find(&self.content, id).map_err(Error::Refused)?;
        let value = (setting.kind.parse(text))
            .map_err(|why| Error::Refused(format!("`{}` {why}", setting.id)))?;
        let id = setting.id.to_string();
        self.set_setting(&id, value)
    }

    /// Sets a setting of any scope at any turn (a player's `--set` over a loaded save), saying
    /// when a `startup` setting changes from what the run had.
    #[cfg(feature = "cli")]
    pub(crate) fn override_setting(&mut self, id: &str, text: &str) -> Result<(), Error> {
        let setting = find(&self.content, id).map_err(Error::Refused)?;
        let value = (setting.kind.parse(text))
            .map_err(|why| Error::Refused(format!("`{}` {why}", setting.id)))?;
        let id = setting.id.clone();
        self.fits_data(&id, &value).map_err(Error::Refused)?;
        let was = self.state.settings.get(&id).cloned();
        if setting.scope == Scope::Startup && self.state.turn > 0 && was.as_ref() != Some(&value) {
            let was = was.map_or_else(|| "unset".to_string(), |v| v.to_string());
            self.report(Diagnostic::warning(
                Code::Reconciled,
                format!("startup setting `{id}` was {was} in this run and is {value} from now on"),
            ));
        }
        self.put_setting(id, value);
        Ok(())
    }

    fn put_setting(&mut self, id: Id, value: SettingValue) {
        self.state.settings.insert(id, value);
    }

    /// Gives every setting the content declares a value it admits: a new setting its default, a
    /// value the setting no longer takes (its range or type changed) the default, with a note; a
    /// setting no mod declares any more is dropped, with a note.
    pub(crate) fn reconcile_settings(&mut self) -> Vec<Diagnostic> {
        let mut notes = Vec::new();
        let content = self.content.clone();
        let note = |notes: &mut Vec<Diagnostic>, m: String| {
            notes.push(Diagnostic::warning(Code::Reconciled, m));
        };
        let gone: Vec<Id> = (self.state.settings.keys())
            .filter(|id| content.setting(id.as_str()).is_none())
            .cloned()
            .collect();
        for id in gone {
            if let Some(v) = self.state.settings.remove(&id) {
                note(
                    &mut notes,
                    format!("setting `{id}` is no longer declared; its value {v} is dropped"),
                );
            }
        }
        for s in content.settings() {
            // What the data read it as is what the game has, whatever the save says.
            if content.read_by_data.contains(&s.id) {
                let read = content
                    .start_settings
                    .get(&s.id)
                    .unwrap_or(&s.default)
                    .clone();
                if let Some(was) = self.state.settings.get(&s.id).filter(|v| **v != read) {
                    note(
                        &mut notes,
                        format!(
                            "setting `{}` was {was}, but the mods' data was read with {read}, which it is now: load the mods with `--set {}={was}` to keep {was}",
                            s.id, s.id
                        ),
                    );
                }
                self.state.settings.insert(s.id.clone(), read);
                continue;
            }
            match self.state.settings.get(&s.id).cloned() {
                None => {
                    self.state.settings.insert(s.id.clone(), s.default.clone());
                }
                Some(v) => match s.kind.admit(v.clone()) {
                    Ok(admitted) => {
                        self.state.settings.insert(s.id.clone(), admitted);
                    }
                    Err(why) => {
                        note(
                            &mut notes,
                            format!(
                                "setting `{}` was {v}, which it no longer takes (it {why}): it is back to its default, {}",
                                s.id, s.default
                            ),
                        );
                        self.state.settings.insert(s.id.clone(), s.default.clone());
                    }
                },
            }
        }
        notes
    }
}

/// The setting `id` names: its whole ID, or a name only one mod's setting has; otherwise what
/// is wrong, with the closest name.
pub(crate) fn find<'a>(content: &'a Content, id: &str) -> Result<&'a Setting, String> {
    find_among(content.settings(), id)
}

/// [`find`] among settings declared but not yet loaded into content (a player's `--set`, checked
/// while the mods load).
pub(crate) fn find_in<'a>(declared: &'a [Setting], id: &str) -> Result<&'a Setting, String> {
    find_among(declared.iter(), id)
}

fn find_among<'a>(
    all: impl Iterator<Item = &'a Setting> + Clone,
    id: &str,
) -> Result<&'a Setting, String> {
    if let Some(s) = all.clone().find(|s| s.id.as_str() == id) {
        return Ok(s);
    }
    if !id.contains(':') {
        let named: Vec<&Setting> = all.clone().filter(|s| s.id.name() == id).collect();
        match named.as_slice() {
            [one] => return Ok(one),
            [] => {}
            many => {
                let ids: Vec<String> = many.iter().map(|s| format!("`{}`", s.id)).collect();
                return Err(format!(
                    "`{}` names a setting of several mods: write one of {}",
                    crate::diag::visible(id),
                    ids.join(", ")
                ));
            }
        }
    }
    let ids: Vec<&str> = all.clone().map(|s| s.id.as_str()).collect();
    if ids.is_empty() {
        return Err(format!(
            "there is no setting `{}`: no mod declares any",
            crate::diag::visible(id)
        ));
    }
    let near = crate::diag::did_you_mean(id, ids.iter().copied())
        .or_else(|| {
            let names = all.clone().map(|s| s.id.name());
            crate::diag::suggest(id, names).and_then(|n| {
                let s = all.clone().find(|s| s.id.name() == n)?;
                Some(format!("did you mean `{}`?", s.id))
            })
        })
        .unwrap_or_else(|| format!("the settings are {}", ids.join(", ")));
    Err(format!(
        "there is no setting `{}`; {near}",
        crate::diag::visible(id)
    ))
}
