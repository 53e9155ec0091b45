import { LegalLayout, LegalSection } from './LegalLayout'

export default function PrivacyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      updated="July 11, 2025"
      intro={
        <p>
          This policy explains what personal information Pinbid collects when creators and brands use our marketplace for pinned comments, why we collect it,
          how long we keep it and the choices you have. It applies to pinbid.app and to the services we provide through it.
        </p>
      }
    >
      <LegalSection title="Information We Collect">
        <p>We collect only what we need to run the marketplace:</p>
        <ul>
          <li>
            <strong>Account information</strong>: your name, email address, password (stored only as a salted hash), your role (creator or brand) and, for
            brands, an optional business name.
          </li>
          <li>
            <strong>Instagram information</strong> (creators, and brands who connect an account): your handle, account id, public profile statistics such as
            followers and average views, the posts you list and the comments on them. Access tokens and login sessions are stored encrypted and never shown in
            the browser.
          </li>
          <li>
            <strong>Marketplace activity</strong>: the slots you list, the bids you place, the comments you propose, approvals, pins and the messages we send
            you about them.
          </li>
          <li>
            <strong>Payment and payout information</strong>: payments are processed by our payment provider; we receive the payment status and the last digits
            of the card, never the full card number. For payouts we keep your chosen method and bank or PayPal details, encrypted and shown only masked.
          </li>
          <li>
            <strong>Technical information</strong>: IP address, browser type, and logs of requests, kept to secure the service and fix problems.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="How We Use Your Information">
        <ul>
          <li>To create and secure your account and keep you signed in.</li>
          <li>To run auctions: show slots to brands, place and resolve bids, and tell the winner what they pay.</li>
          <li>To post and pin approved comments on a creator’s post, and to measure their likes and replies.</li>
          <li>To take payments, pay creators, keep the accounting records the law requires, and prevent fraud.</li>
          <li>To send service messages (new bids, approvals, payouts, password resets) and, only if you opt in, news and offers.</li>
        </ul>
        <p>
          We do not sell your personal information. We share it only with the providers who help us run Pinbid (hosting, email, payments, Instagram’s API),
          under contracts that limit their use of it, with the other party to a transaction (a creator sees the winning brand’s name and comment; a brand sees
          the creator’s public profile), or when the law requires it.
        </p>
      </LegalSection>

      <LegalSection title="Data Retention and Security">
        <p>
          We keep account information while your account is open. Transaction and payout records are kept for as long as tax and accounting law requires
          (typically seven years). Technical logs are deleted after 90 days. When you close your account we delete or anonymise the rest within 30 days.
        </p>
        <p>
          All traffic is encrypted in transit. Secrets such as Instagram tokens and bank details are encrypted at rest. Access inside Pinbid is limited to the
          people who need it. No system is perfectly secure; if a breach affects you, we will tell you without undue delay.
        </p>
      </LegalSection>

      <LegalSection title="Your Privacy Rights">
        <p>Depending on where you live, you may have the right to:</p>
        <ul>
          <li>see the personal information we hold about you and receive a copy of it;</li>
          <li>correct it (you can change your name and email in Settings at any time);</li>
          <li>delete it, or ask us to restrict or stop using it;</li>
          <li>withdraw consent to marketing emails (Settings → Notification Preferences, or the link in any such email);</li>
          <li>disconnect your Instagram account, which stops any further access to it;</li>
          <li>complain to your local data protection authority.</li>
        </ul>
        <p>We answer requests within 30 days and do not charge for them.</p>
      </LegalSection>

      <LegalSection title="Contact Us">
        <p>
          Questions about this policy or your data: write to <a className="font-medium text-primary underline underline-offset-4" href="mailto:privacy@pinbid.app">privacy@pinbid.app</a>.
          We will update this policy when our practices change and tell you by email about any material change.
        </p>
      </LegalSection>
    </LegalLayout>
  )
}
