//! Deep links into the app: `damas://join/<code>` opens a friends' room's join screen with the
//! code filled in (tauri-plugin-deep-link delivers them; on Linux and Windows a link opened while
//! the app runs comes through tauri-plugin-single-instance). The link is read here, in Rust:
//! only a room code of the room server's format gets through to the UI.
//!
//! A link that arrives before the UI is ready waits as the pending link, which the UI takes at
//! start (`take_deep_link`); one that arrives while the UI runs is also announced to it with the
//! `deep-link` event.

use damas_server::store::RoomCode;
use std::sync::Mutex;
use thiserror::Error;

/// The scheme the app registers (tauri.conf.json, `plugins.deep-link`).
pub const SCHEME: &str = "damas";
/// The event a running UI hears when a join link arrives (payload: the room code).
pub const LINK_EVENT: &str = "deep-link";

/// Why a link is not a join link. The messages quote at most the part at fault, cut short.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LinkError {
    #[error("not a link")]
    NotALink,
    #[error("not a damas:// link")]
    OtherScheme,
    #[error("damas:// links open join/<code>, not '{0}'")]
    UnknownAction(String),
    #[error("'{0}' is not a room code")]
    BadCode(String),
}

/// At most this much of a bad part is quoted back.
const QUOTED: usize = 40;

fn quoted(text: &str) -> String {
    text.chars()
        .take(QUOTED)
        .collect::<String>()
        .escape_default()
        .to_string()
}

/// The room code of a `damas://join/<code>` link (a trailing `/` is allowed; a query or
/// fragment is ignored). The scheme is matched without regard to case, as URLs are.
pub fn join_code(link: &str) -> Result<String, LinkError> {
    let link = link.trim();
    let (scheme, rest) = link.split_once(':').ok_or(LinkError::NotALink)?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return Err(LinkError::NotALink);
    }
    if !scheme.eq_ignore_ascii_case(SCHEME) {
        return Err(LinkError::OtherScheme);
    }
    let rest = rest.strip_prefix("//").ok_or(LinkError::NotALink)?;
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (action, code) = rest.split_once('/').unwrap_or((rest, ""));
    if action != "join" {
        return Err(LinkError::UnknownAction(quoted(action)));
    }
    let code = code.strip_suffix('/').unwrap_or(code);
    RoomCode::parse(code)
        .map(|code| code.as_str().to_string())
        .ok_or_else(|| LinkError::BadCode(quoted(code)))
}

/// The first join link among a program's arguments (the binary's name first, left out). On
/// Linux and Windows the system opens a link by starting the app with it as an argument.
pub fn join_code_in_args<S: AsRef<str>>(args: impl IntoIterator<Item = S>) -> Option<String> {
    args.into_iter()
        .skip(1)
        .find(|arg| {
            arg.as_ref()
                .get(..SCHEME.len() + 1)
                .is_some_and(|head| head.eq_ignore_ascii_case("damas:"))
        })
        .and_then(|arg| join_code(arg.as_ref()).ok())
}

/// The event a running UI hears when a sign-in comes back (no payload: the UI takes the session
/// with `take_signed_in`, once).
pub const SIGNED_IN_EVENT: &str = "signed-in";

/// The session token of a `damas://signed-in#session=TOKEN` link: where the room server sends the
/// system browser after a sign-in started with `to=app` (docs/protocol.md "Signing in"). The token
/// is the server's own (base64url, 43 characters); anything else is no sign-in link.
pub fn signed_in_session(link: &str) -> Option<String> {
    let link = link.trim();
    let (scheme, rest) = link.split_once(':')?;
    if !scheme.eq_ignore_ascii_case(SCHEME) {
        return None;
    }
    let (place, fragment) = rest.strip_prefix("//")?.split_once('#')?;
    if place.trim_end_matches('/') != "signed-in" {
        return None;
    }
    let token = fragment
        .split('&')
        .find_map(|part| part.strip_prefix("session="))?;
    let well_formed = (20..=128).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    well_formed.then(|| token.to_string())
}

/// The first sign-in link among a program's arguments (the binary's name first, left out).
pub fn signed_in_session_in_args<S: AsRef<str>>(
    args: impl IntoIterator<Item = S>,
) -> Option<String> {
    args.into_iter()
        .skip(1)
        .find_map(|arg| signed_in_session(arg.as_ref()))
}

/// The session of a sign-in waiting for the UI: the latest one received.
#[derive(Debug, Default)]
pub struct PendingSession(Mutex<Option<String>>);

impl PendingSession {
    pub fn set(&self, token: String) {
        *crate::lock::lock(&self.0) = Some(token);
    }

    pub fn take(&self) -> Option<String> {
        crate::lock::lock(&self.0).take()
    }
}

/// The join link waiting for the UI: the latest one received.
#[derive(Debug, Default)]
pub struct PendingLink(Mutex<Option<String>>);

impl PendingLink {
    pub fn set(&self, code: String) {
        *crate::lock::lock(&self.0) = Some(code);
    }

    pub fn take(&self) -> Option<String> {
        crate::lock::lock(&self.0).take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: &str = "x8Jd0-qL2mZ_a9Qe";

    #[test]
    fn good_join_links_give_their_code() {
        for link in [
            format!("damas://join/{CODE}"),
            format!("damas://join/{CODE}/"),
            format!("DAMAS://join/{CODE}"),
            format!("  damas://join/{CODE}\n"),
            format!("damas://join/{CODE}?from=share"),
            format!("damas://join/{CODE}#x"),
        ] {
            assert_eq!(join_code(&link).as_deref(), Ok(CODE), "{link:?}");
        }
    }

    #[test]
    fn bad_links_are_refused_with_the_reason() {
        use LinkError::*;
        let cases: [(&str, LinkError); 12] = [
            ("", NotALink),
            ("join/x8Jd0-qL2mZ_a9Qe", NotALink),
            ("damas:join/x8Jd0-qL2mZ_a9Qe", NotALink),
            ("https://example.org/r/x8Jd0-qL2mZ_a9Qe", OtherScheme),
            ("damasx://join/x8Jd0-qL2mZ_a9Qe", OtherScheme),
            (
                "damas://watch/x8Jd0-qL2mZ_a9Qe",
                UnknownAction("watch".into()),
            ),
            ("damas://x8Jd0-qL2mZ_a9Qe", UnknownAction(CODE.into())),
            ("damas://join/", BadCode("".into())),
            ("damas://join/short", BadCode("short".into())),
            (
                "damas://join/x8Jd0-qL2mZ_a9Qe0",
                BadCode(format!("{CODE}0")),
            ),
            (
                "damas://join/x8Jd0-qL2mZ_a9Q%",
                BadCode("x8Jd0-qL2mZ_a9Q%".into()),
            ),
            (
                "damas://join/../../etc/passwd",
                BadCode("../../etc/passwd".into()),
            ),
        ];
        for (link, error) in cases {
            assert_eq!(join_code(link), Err(error), "{link:?}");
        }
        // A long bad part is quoted short.
        let long = format!("damas://join/{}", "a".repeat(5000));
        match join_code(&long) {
            Err(BadCode(shown)) => assert_eq!(shown.len(), QUOTED),
            other => panic!("{other:?}"),
        }
    }

    const TOKEN: &str = "q2Zt0vY5mS1xN8cR4bK7wP3eH6uJ9aL0dF2gI5oT8yU";

    #[test]
    fn a_sign_in_link_gives_its_session_and_nothing_else_does() {
        for link in [
            format!("damas://signed-in#session={TOKEN}"),
            format!("DAMAS://signed-in/#session={TOKEN}"),
            format!(" damas://signed-in#x=1&session={TOKEN}\n"),
        ] {
            assert_eq!(signed_in_session(&link).as_deref(), Some(TOKEN), "{link:?}");
        }
        for link in [
            format!("damas://join/{CODE}"),
            format!("damas://signed-in?session={TOKEN}"),
            format!("damas://signed-out#session={TOKEN}"),
            format!("https://signed-in#session={TOKEN}"),
            "damas://signed-in#session=short".to_string(),
            "damas://signed-in#session=<script>alert(1)</script>aaaaaaaaaaaa".to_string(),
            format!("damas://signed-in#session={}", "a".repeat(129)),
            "damas://signed-in".to_string(),
            String::new(),
        ] {
            assert_eq!(signed_in_session(&link), None, "{link:?}");
        }
        let link = format!("damas://signed-in#session={TOKEN}");
        assert_eq!(
            signed_in_session_in_args(["damas-app", "-x", link.as_str()]).as_deref(),
            Some(TOKEN)
        );
        assert_eq!(signed_in_session_in_args([link.as_str()]), None);
        let pending = PendingSession::default();
        pending.set(TOKEN.into());
        assert_eq!(pending.take().as_deref(), Some(TOKEN));
        assert_eq!(pending.take(), None);
    }

    #[test]
    fn the_join_link_is_found_among_the_arguments() {
        let link = format!("damas://join/{CODE}");
        assert_eq!(
            join_code_in_args(["damas-app", link.as_str()]).as_deref(),
            Some(CODE)
        );
        // Another program's flags around it (a WebDriver, a launcher) do not hide it.
        assert_eq!(
            join_code_in_args(["damas-app", "--automation", link.as_str(), "-x"]).as_deref(),
            Some(CODE)
        );
        assert_eq!(
            join_code_in_args([link.as_str()]),
            None,
            "the binary's name"
        );
        assert_eq!(join_code_in_args(["damas-app", "damas://join/bad"]), None);
        assert_eq!(join_code_in_args(["damas-app"]), None);
        let pending = PendingLink::default();
        assert_eq!(pending.take(), None);
        pending.set(CODE.into());
        pending.set("AAAAAAAAAAAAAAAA".into());
        assert_eq!(pending.take().as_deref(), Some("AAAAAAAAAAAAAAAA"));
        assert_eq!(pending.take(), None);
    }
}
