import { creatorSharePercent, platformFeePercent } from '@/lib/bids'
import { LegalLayout, LegalSection } from './LegalLayout'

export default function TermsPage() {
  return (
    <LegalLayout
      title="Terms of Service"
      updated="July 11, 2025"
      intro={
        <p>
          These terms govern your use of Pinbid, a marketplace where creators auction the pinned-comment slot on their Instagram posts and brands bid for it.
          Please read them carefully.
        </p>
      }
    >
      <LegalSection title="1. Acceptance of Terms">
        <p>
          By creating an account or using Pinbid you agree to these terms and to our Privacy Policy. If you use Pinbid on behalf of a company, you confirm that
          you may bind it to these terms. You must be at least 18 years old. We may change these terms; we will give at least 14 days’ notice of material
          changes, and continued use after that means you accept them.
        </p>
      </LegalSection>

      <LegalSection title="2. User Accounts">
        <p>
          You sign up as a creator or as a brand and must give accurate information. Keep your password secret: you are responsible for what happens under
          your account. Creators must connect an Instagram Business or Creator account that they own or are authorised to manage. We may suspend or close
          accounts that break these terms, are used for fraud, or put other users at risk.
        </p>
      </LegalSection>

      <LegalSection title="3. Service Description & Payments">
        <ul>
          <li>
            <strong>Auctions.</strong> Slots are sold in second-price auctions: the highest bidder wins and pays the second-highest bid (at least the slot’s
            minimum bid). A bid is a binding offer once the creator approves it. Some slots may offer a Buy Now price.
          </li>
          <li>
            <strong>Approval.</strong> The creator may approve or reject the winning bid and its comment. Brands are charged only after approval; a bid that
            is not approved is not charged, or is refunded in full.
          </li>
          <li>
            <strong>Cancelling bids.</strong> A brand may cancel a bid only before the auction ends and only if it is not the current highest bid.
          </li>
          <li>
            <strong>Fees.</strong> Pinbid keeps a {platformFeePercent()}% commission from the final price; the creator earns the remaining {creatorSharePercent()}%. A service fee may be added to the
            brand’s payment, shown before payment.
          </li>
          <li>
            <strong>Pinning and payouts.</strong> The creator pins the approved comment for the slot’s stated duration. Creator earnings become available once
            the comment is pinned and are paid on the creator’s schedule when they reach the $50 minimum; smaller balances roll over. A paid placement that is
            not pinned in time is refunded to the brand.
          </li>
          <li>
            <strong>Taxes.</strong> Each user is responsible for their own taxes. We may ask creators for tax forms before paying out.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="4. Content and Conduct">
        <p>
          Brands are responsible for the comments they submit. Comments must be lawful, truthful, respectful and relevant to the post, and must be clearly
          disclosed as advertising (for example with #ad) where the law or Instagram’s rules require it. Creators must not misrepresent their audience or
          engagement. Nobody may use Pinbid to harass others, spread malware, manipulate auctions (including shill bidding), or break Instagram’s terms.
          Creators may unpin a comment at any time; doing so before the agreed duration is recorded and may affect their rating.
        </p>
      </LegalSection>

      <LegalSection title="5. Limitation of Liability">
        <p>
          Pinbid is provided “as is”. We do not guarantee any number of views, clicks or sales, and we are not responsible for changes Instagram makes to its
          platform. To the extent the law allows, our total liability to you for any claim is limited to the fees Pinbid received from you in the 12 months
          before the claim, and we are not liable for indirect or consequential losses. Nothing in these terms limits liability that cannot be limited by law.
        </p>
      </LegalSection>

      <LegalSection title="6. Contact Us">
        <p>
          Questions about these terms: write to <a className="font-medium text-primary underline underline-offset-4" href="mailto:legal@pinbid.app">legal@pinbid.app</a>. For
          help with an auction or a payment, contact <a className="font-medium text-primary underline underline-offset-4" href="mailto:support@pinbid.app">support@pinbid.app</a>.
        </p>
      </LegalSection>
    </LegalLayout>
  )
}
