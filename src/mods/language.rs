//! Language tags, as a mod's manifest, its locale files' names and a player's `--lang` write them:
//! one rule for all three, so `english` is refused wherever it is written.

/// What is wrong with `lang` as a language (`is not a language tag (...)`, to follow the tag
/// as the caller shows it), and the code meant when it is a language's name (`en` for
/// `english`); `Ok` for a tag whose language is an ISO 639 code of two or three letters (`en`,
/// `de-AT`, `zh-Hans`, `fil`). `english` parses as a tag (a language subtag may have up to eight
/// letters) but names no language a player sets.
pub(crate) fn language_tag(lang: &str) -> Result<(), (String, Option<&'static str>)> {
    if let Err(e) = lang.parse::<unic_langid::LanguageIdentifier>() {
        return Err((format!("is not a language tag ({e})"), None));
    }
    let primary = lang.split(['-', '_']).next().unwrap_or(lang);
    if primary.len() > 3 {
        return Err(("is not a language code".to_string(), code_for(primary)));
    }
    Ok(())
}

/// The code of a language written out in English or in itself (`german`, `deutsch`: `de`), for
/// the commonest ones.
fn code_for(name: &str) -> Option<&'static str> {
    const NAMES: &[(&str, &str)] = &[
        ("english", "en"),
        ("german", "de"),
        ("deutsch", "de"),
        ("french", "fr"),
        ("francais", "fr"),
        ("spanish", "es"),
        ("espanol", "es"),
        ("italian", "it"),
        ("portuguese", "pt"),
        ("russian", "ru"),
        ("chinese", "zh"),
        ("japanese", "ja"),
        ("korean", "ko"),
        ("polish", "pl"),
        ("dutch", "nl"),
        ("turkish", "tr"),
        ("ukrainian", "uk"),
    ];
    let name = name.to_ascii_lowercase();
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::language_tag;

    #[test]
    fn codes_pass_and_names_are_told_their_code() {
        for ok in ["en", "de-AT", "zh-Hans", "fil", "pt_BR"] {
            assert!(language_tag(ok).is_ok(), "{ok}");
        }
        assert_eq!(
            language_tag("English"),
            Err(("is not a language code".to_string(), Some("en")))
        );
        assert!(language_tag("en!")
            .unwrap_err()
            .0
            .starts_with("is not a language tag"));
    }
}
