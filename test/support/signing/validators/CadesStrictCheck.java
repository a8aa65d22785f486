// Strict, independent check of a CAdES signature with BouncyCastle: the CMS signature over the content, the
// signing-certificate-v2 attribute (hash and issuer/serial of the signer certificate), no signing-time, the signer
// certificate issued by the given root, and, unless "-no-timestamp", the signature timestamp token (TSA signature,
// ESSCertID, imprint = hash of the signature value, TSA certificate issued by the TSA root).
// Usage: java CadesStrictCheck cms.der content.bin signer-root.pem tsa-root.pem|-no-timestamp
import java.io.File;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.Security;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.asn1.cms.Attribute;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.cms.ContentInfo;
import org.bouncycastle.asn1.ess.ESSCertIDv2;
import org.bouncycastle.asn1.ess.SigningCertificateV2;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cms.CMSProcessableFile;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.tsp.TimeStampToken;

public class CadesStrictCheck {
  static boolean ok = true;

  static void check(boolean condition, String what) {
    System.out.println((condition ? "OK " : "FAIL ") + what);
    ok &= condition;
  }

  static X509CertificateHolder pem(String path) throws Exception {
    String text = new String(Files.readAllBytes(Paths.get(path)), "US-ASCII");
    String b64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return new X509CertificateHolder(Base64.getDecoder().decode(b64));
  }

  public static void main(String[] args) throws Exception {
    Security.addProvider(new BouncyCastleProvider());
    CMSSignedData cms = new CMSSignedData(new CMSProcessableFile(new File(args[1])), Files.readAllBytes(Paths.get(args[0])));
    SignerInformation si = cms.getSignerInfos().getSigners().iterator().next();
    X509CertificateHolder cert = (X509CertificateHolder) cms.getCertificates().getMatches(si.getSID()).iterator().next();
    check(si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider("BC").build(cert)), "cms signature and message digest");
    check(cert.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider("BC").build(pem(args[2]))), "signer certificate issued by the root");
    check(si.getSignedAttributes().get(CMSAttributes.signingTime) == null, "no signing-time attribute");
    Attribute scv2 = si.getSignedAttributes().get(PKCSObjectIdentifiers.id_aa_signingCertificateV2);
    check(scv2 != null, "signing-certificate-v2 present");
    if (scv2 != null) {
      ESSCertIDv2 id = SigningCertificateV2.getInstance(scv2.getAttrValues().getObjectAt(0)).getCerts()[0];
      MessageDigest md = MessageDigest.getInstance(id.getHashAlgorithm().getAlgorithm().getId(), "BC");
      check(Arrays.equals(md.digest(cert.getEncoded()), id.getCertHash()), "signing-certificate-v2 hash matches the signer certificate");
      GeneralName issuer = id.getIssuerSerial().getIssuer().getNames()[0];
      check(X500Name.getInstance(issuer.getName()).equals(cert.getIssuer())
          && id.getIssuerSerial().getSerial().getValue().equals(cert.getSerialNumber()), "signing-certificate-v2 issuer and serial match");
    }
    if (!args[3].equals("-no-timestamp")) {
      Attribute ts = si.getUnsignedAttributes() == null ? null : si.getUnsignedAttributes().get(PKCSObjectIdentifiers.id_aa_signatureTimeStampToken);
      check(ts != null, "signature timestamp present");
      if (ts != null) {
        TimeStampToken token = new TimeStampToken(ContentInfo.getInstance(ts.getAttrValues().getObjectAt(0)));
        X509CertificateHolder tsaCert = (X509CertificateHolder) token.getCertificates().getMatches(token.getSID()).iterator().next();
        token.validate(new JcaSimpleSignerInfoVerifierBuilder().setProvider("BC").build(tsaCert));
        check(true, "timestamp token signature, ESSCertID and TSA extended key usage");
        MessageDigest md = MessageDigest.getInstance(token.getTimeStampInfo().getHashAlgorithm().getAlgorithm().getId(), "BC");
        check(Arrays.equals(md.digest(si.getSignature()), token.getTimeStampInfo().getMessageImprintDigest()), "timestamp imprint is the hash of the signature value");
        check(tsaCert.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider("BC").build(pem(args[3]))), "TSA certificate issued by the TSA root");
      }
    }
    System.exit(ok ? 0 : 1);
  }
}
