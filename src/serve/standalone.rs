//! `puz export FILE --html OUT`: the playground as one standalone page. The page the
//! server sends (`assets/`), with its styles and scripts inlined, the core compiled to
//! WebAssembly (`assets/puz-core.js`, built by `scripts/build-wasm`) and `local.js`, which
//! answers the page's API in the browser, and the puzzle's text embedded. Opened from
//! disk (file://) it plays, solves, analyzes and tests with no server.

use serde_json::json;

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
const EDITOR_JS: &str = include_str!("assets/editor.js");
const PICTURE_JS: &str = include_str!("assets/picture.js");
const PAINTER_JS: &str = include_str!("assets/painter.js");
const LOCAL_JS: &str = include_str!("assets/local.js");
/// The core as WebAssembly and its glue (`PUZ_CORE`), built by `scripts/build-wasm`.
const CORE_JS: &str = include_str!("assets/puz-core.js");

/// The tags of the served page that the standalone page replaces with inlined text.
const STYLE_TAG: &str = r#"<link rel="stylesheet" href="/assets/app.css">"#;
const EDITOR_TAG: &str = r#"<script src="/assets/editor.js"></script>"#;
const APP_TAG: &str = r#"<script src="/assets/app.js"></script>"#;
const PICTURE_TAG: &str = r#"<script src="/assets/picture.js"></script>"#;
const PAINTER_TAG: &str = r#"<script src="/assets/painter.js"></script>"#;
const TITLE_TAG: &str = "<title>puz playground</title>";

/// A script's text made safe inside `<script>`: no `</script` or `<!--` closes it early
/// (both are rewritten with a backslash, which means the same in JavaScript strings and
/// regular expressions, the only places they occur).
fn script(text: &str) -> String {
    let safe = text
        .replace("</script", "<\\/script")
        .replace("<!--", "<\\!--");
    format!("<script>{safe}</script>")
}

/// The standalone page for the file `name` (its path as the page lists it) with `text`.
pub fn standalone_page(name: &str, text: &str) -> String {
    let files = json!({
        "root": "standalone page",
        "initial": name,
        "files": [{"path": name, "text": text}],
    });
    // JSON inside a script element: `<` escaped, so no text of the puzzle closes it.
    let data = files.to_string().replace('<', "\\u003c");
    let title = name.rsplit('/').next().unwrap_or(name);
    INDEX
        .replacen(
            TITLE_TAG,
            &format!("<title>{} - puz</title>", html_escape(title)),
            1,
        )
        .replacen(
            STYLE_TAG,
            &format!("<style>{}</style>", APP_CSS.replace("</style", "<\\/style")),
            1,
        )
        .replacen(
            EDITOR_TAG,
            &format!(
                "<script type=\"application/json\" id=\"puz-files\">{data}</script>\n{}\n{}\n{}",
                script(CORE_JS),
                script(LOCAL_JS),
                script(EDITOR_JS)
            ),
            1,
        )
        .replacen(APP_TAG, &script(APP_JS), 1)
        .replacen(PAINTER_TAG, &script(PAINTER_JS), 1)
        .replacen(PICTURE_TAG, &script(PICTURE_JS), 1)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_inlined() {
        for tag in [
            STYLE_TAG,
            EDITOR_TAG,
            APP_TAG,
            PAINTER_TAG,
            PICTURE_TAG,
            TITLE_TAG,
        ] {
            assert!(INDEX.contains(tag), "index.html lost {tag}");
        }
        let page = standalone_page("a.puz", "title \"</script><b>\"\n");
        assert!(
            !page.contains("src=\"/assets/"),
            "a script still loads from the server"
        );
        assert!(
            !page.contains("href=\"/assets/"),
            "a style still loads from the server"
        );
        assert!(page.contains("<title>a.puz - puz</title>"));
        assert!(page.contains("var PUZ_CORE"));
        // The puzzle's text cannot close its script element.
        assert!(!page.contains("</script><b>"));
        // Each inlined script closes once: seven elements (the data, the core, local.js,
        // the editor, app.js, painter.js, picture.js), none closed early by its own text.
        assert_eq!(page.matches("</script>").count(), 7);
    }
}
