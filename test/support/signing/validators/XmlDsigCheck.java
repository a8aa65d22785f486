// Independent XML-DSig core validation of one ds:Signature of an unzipped ASiC-E container with the JDK's own
// javax.xml.crypto (Apache Santuario inside), which knows RSASSA-PSS (xmldsig-more sha256-rsa-MGF1) where xmlsec1
// 1.2.37 does not: the SignatureValue against the certificate in ds:KeyInfo, and every ds:Reference (container
// files relative to the root, the XAdES SignedProperties by Id). Prints the SignatureMethod and "VALID" or the
// failing part; exit 0 only when the signature is valid.
// Usage: java XmlDsigCheck container-root META-INF/signatures0.xml
import java.io.File;
import java.io.FileInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import javax.xml.crypto.OctetStreamData;
import javax.xml.crypto.URIDereferencer;
import javax.xml.crypto.URIReferenceException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import javax.xml.crypto.dsig.Reference;
import javax.xml.crypto.dsig.XMLSignature;
import javax.xml.crypto.dsig.XMLSignatureFactory;
import javax.xml.crypto.dsig.dom.DOMValidateContext;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

public class XmlDsigCheck {
  static final String DS = "http://www.w3.org/2000/09/xmldsig#";
  static final String XADES = "http://uri.etsi.org/01903/v1.3.2#";

  public static void main(String[] args) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    File root = new File(args[0]);
    Document doc = factory.newDocumentBuilder().parse(new File(root, args[1]));
    Element signature = (Element) doc.getElementsByTagNameNS(DS, "Signature").item(0);
    String certificate = doc.getElementsByTagNameNS(DS, "X509Certificate").item(0).getTextContent().replaceAll("\\s", "");
    X509Certificate signer = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(certificate)));
    DOMValidateContext context = new DOMValidateContext(signer.getPublicKey(), signature);
    // Secure validation forbids file: URIs: the container's data files are read here, relative to its root.
    URIDereferencer sameDocument = XMLSignatureFactory.getInstance("DOM").getURIDereferencer();
    context.setURIDereferencer((reference, ctx) -> {
      String uri = reference.getURI();
      if (uri.startsWith("#")) return sameDocument.dereference(reference, ctx);
      try {
        return new OctetStreamData(new FileInputStream(new File(root, URLDecoder.decode(uri, StandardCharsets.UTF_8))), uri, null);
      } catch (java.io.IOException e) {
        throw new URIReferenceException(e);
      }
    });
    NodeList properties = doc.getElementsByTagNameNS(XADES, "SignedProperties");
    for (int i = 0; i < properties.getLength(); i++) context.setIdAttributeNS((Element) properties.item(i), null, "Id");
    XMLSignature xml = XMLSignatureFactory.getInstance("DOM").unmarshalXMLSignature(context);
    System.out.println("SignatureMethod " + xml.getSignedInfo().getSignatureMethod().getAlgorithm());
    boolean valid = xml.validate(context);
    if (!xml.getSignatureValue().validate(context)) System.out.println("SignatureValue INVALID");
    for (Object reference : xml.getSignedInfo().getReferences()) {
      if (!((Reference) reference).validate(context)) System.out.println("Reference INVALID " + ((Reference) reference).getURI());
    }
    System.out.println(valid ? "VALID" : "INVALID");
    System.exit(valid ? 0 : 1);
  }
}
