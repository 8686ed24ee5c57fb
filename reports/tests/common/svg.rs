//! Reading a chart back from its SVG text: the texts it printed and the
//! shapes it drew, with their attributes, so a test can check where things
//! landed.

/// `<text ...>content</text>` elements of an SVG: (attributes, content).
pub fn svg_texts(svg: &str) -> Vec<(String, String)> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let (attrs, rest) = t.split_once('>').unwrap();
            let content = rest.split("</text>").next().unwrap().trim();
            (attrs.to_owned(), content.to_owned())
        })
        .collect()
}

/// The value of attribute `name` in an element's `attrs`.
pub fn attr<'a>(attrs: &'a str, name: &str) -> &'a str {
    let start = attrs
        .find(&format!(" {name}=\""))
        .or_else(|| attrs.starts_with(&format!("{name}=\"")).then_some(0))
        .unwrap();
    let rest = &attrs[start..];
    let rest = &rest[rest.find('"').unwrap() + 1..];
    &rest[..rest.find('"').unwrap()]
}

/// Every `<tag ...>` element of an SVG whose attributes contain all of
/// `having`: the value of its attribute `value` (`fill`, `stroke`,
/// `stroke-width`) and its `points`.
pub fn shapes(
    svg: &str,
    tag: &str,
    value: &str,
    having: &[&str],
) -> Vec<(String, Vec<(i32, i32)>)> {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .map(|t| format!(" {}", t.split_once('>').unwrap().0))
        .filter(|attrs| having.iter().all(|h| attrs.contains(h)))
        .map(|attrs| {
            let points = attr(&attrs, "points")
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (attr(&attrs, value).to_owned(), points)
        })
        .collect()
}
