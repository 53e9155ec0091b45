from pinbid_kit import instagram_rules as rules


def test_a_new_comment_opens_with_the_disclosure_naming_the_brand():
    brand = rules.brand_label("northwind.coffee", "Northwind Coffee", "Ann")
    assert rules.disclosed("  Love   this mug! ", brand) == "Ad · @northwind.coffee: Love this mug!"
    assert rules.disclosed("Love it", rules.brand_label(None, "Northwind Coffee", "Ann")) == \
        "Ad · Northwind Coffee: Love it"
    assert rules.disclosed("Love it", rules.brand_label("bad handle!", None, None)).startswith("Ad · a brand partner:")


def test_a_disclosed_comment_is_not_disclosed_twice():
    assert rules.disclosed("#ad Love this mug", "@northwind") == "#ad Love this mug"


def test_only_a_disclosure_at_the_start_counts():
    for text in ("Ad · @brand: hi", "#ad hi", "#AD: hi", "Sponsored: hi", "Paid partnership with @brand", "  ad - hi"):
        assert rules.starts_with_disclosure(text), text
    for text in ("Love it #ad", "Adorable mug", "Adidas fan here", "Great! Sponsored by @brand", ""):
        assert not rules.starts_with_disclosure(text), text


def test_limits():
    assert rules.limit_problems("Ad · @b: fine #one #two @a") == []
    assert "2200 characters" in rules.limit_problems("x" * 2201)[0]
    assert "30 hashtags" in rules.limit_problems(" ".join(f"#t{i}" for i in range(31)))[0]
    assert "5 accounts" in rules.limit_problems(" ".join(f"@u{i}" for i in range(6)))[0]
    assert rules.limit_problems("   ") == ["A comment cannot be empty."]
    assert rules.mentions("mail me at a@b.com") == 0
