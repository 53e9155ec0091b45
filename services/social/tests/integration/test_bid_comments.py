"""A bid that names an existing comment (commentId): social reads it on the slot's post and tells marketplace its
text and author (social.bid_comment.resolved.v1), once per event whatever the redeliveries."""

import uuid

from pinbid_kit.events.marketplace import BidCommentChanged
from pinbid_kit.events.social import BidCommentResolved


async def test_a_named_comment_is_read_on_the_post_and_announced_with_its_text_and_author(world):
    comment_id = await world.buyer_comment()
    [(text, author)] = await world.social.sql("SELECT text, author FROM sandbox_comments WHERE id = :c", c=comment_id)
    bid_id = uuid.uuid4()
    changed = BidCommentChanged(bid_id=bid_id, slot_id=world.slot_id, buyer_id=world.buyer, comment_id=comment_id,
                                comment_text=None)
    envelope = await world.social.deliver(changed)
    await world.social.service.consumers.dispatch(envelope, {})  # redelivered: announced once
    [resolved] = await world.social.events(BidCommentResolved.event_type)
    assert (resolved["bidId"], resolved["commentId"], resolved["found"]) == (str(bid_id), comment_id, True)
    assert (resolved["text"], resolved["username"]) == (text, author) and author == "northwind.coffee"


async def test_a_comment_the_post_does_not_have_is_announced_as_not_found_and_a_new_text_is_not_read(world):
    await world.social.deliver(BidCommentChanged(bid_id=uuid.uuid4(), slot_id=world.slot_id, buyer_id=world.buyer,
                                                 comment_id="no-such-comment"))
    await world.social.deliver(BidCommentChanged(bid_id=uuid.uuid4(), slot_id=world.slot_id, buyer_id=world.buyer,
                                                 comment_text="A new text"))
    [resolved] = await world.social.events(BidCommentResolved.event_type)
    assert (resolved["found"], resolved["text"], resolved["username"]) == (False, None, None)
