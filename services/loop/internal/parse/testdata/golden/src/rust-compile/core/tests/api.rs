#[test]
fn public_add() {
    assert_eq!(core::add(20, 22), 42);
}
