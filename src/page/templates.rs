//! The files the page's "New" starts from: a small whole `.puz` file per kind of puzzle,
//! each checked clean and solved by the tests (`serve_api`).

use serde_json::{json, Value};

/// One template: its id, the name the page shows, and its text.
pub struct Template {
    /// A short id (`push`), also the suggested file name.
    pub id: &'static str,
    /// What the page's menu shows.
    pub title: &'static str,
    /// The file.
    pub text: &'static str,
}

/// Every template, in the menu's order.
pub const TEMPLATES: [Template; 4] = [
    Template {
        id: "empty",
        title: "Empty (one piece, one move)",
        text: include_str!("templates/empty.puz"),
    },
    Template {
        id: "push",
        title: "Push puzzle (Sokoban)",
        text: include_str!("templates/push.puz"),
    },
    Template {
        id: "slide",
        title: "Slide puzzle (ice)",
        text: include_str!("templates/slide.puz"),
    },
    Template {
        id: "lights",
        title: "Lights-Out style (press a cell)",
        text: include_str!("templates/lights.puz"),
    },
];

/// `GET /api/templates`: `{"templates": [{"id", "title", "text"}]}`.
pub fn templates() -> Value {
    let list: Vec<Value> = TEMPLATES
        .iter()
        .map(|t| json!({"id": t.id, "title": t.title, "text": t.text}))
        .collect();
    json!({ "templates": list })
}
