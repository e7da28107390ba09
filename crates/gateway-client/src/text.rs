//! Small pieces of wording that the validators and the display share (a leaf module: it uses no other module).

/// A character as an error message names it: `'x'`, or "a space" for white space.
pub(crate) fn describe_char(c: char) -> String {
    if c.is_whitespace() {
        "a space".to_owned()
    } else {
        format!("'{c}'")
    }
}
