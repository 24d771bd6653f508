//! Arithmetic helpers.

pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

pub fn at(xs: &[i32], i: usize) -> i32 {
    xs[i]
}

fn mode() -> String {
    std::env::var("CASE").unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn adds_wrong() {
        let want = if mode() == "fail" { 5 } else { 4 };
        assert_eq!(add(2, 2), want);
    }

    #[test]
    #[ignore]
    fn slow() {}

    #[test]
    fn indexes() {
        let i = if mode() == "fail" { 7 } else { 1 };
        assert_eq!(at(&[1, 2, 3], i), 2);
    }
}
