// Independent computation of what a XAdES ArchiveTimeStamp covers (ETSI EN 319 132-1 5.5.2, no ds:Manifest), with
// the JDK's own XML stack (DOM parser, Apache Santuario exclusive canonicalizer): each ds:Reference processed in
// SignedInfo order (a file of the unzipped container read as bytes, a same-document reference canonicalized), then
// ds:SignedInfo, ds:SignatureValue, ds:KeyInfo and the unsigned signature properties before the ArchiveTimeStamp,
// concatenated into the output file; the EncapsulatedTimeStamp of the ArchiveTimeStamp goes to a second file.
// Usage: java XadesArchiveInput signatures.xml container-root out.bin token.der
import com.sun.org.apache.xml.internal.security.Init;
import com.sun.org.apache.xml.internal.security.c14n.Canonicalizer;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

public class XadesArchiveInput {
  static final String DS = "http://www.w3.org/2000/09/xmldsig#";
  static final String XADES = "http://uri.etsi.org/01903/v1.3.2#";
  static final String XADES141 = "http://uri.etsi.org/01903/v1.4.1#";

  static byte[] canonical(Node node) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Canonicalizer.getInstance(Canonicalizer.ALGO_ID_C14N_EXCL_OMIT_COMMENTS).canonicalizeSubtree(node, out);
    return out.toByteArray();
  }

  static Element first(Document doc, String ns, String name) {
    return (Element) doc.getElementsByTagNameNS(ns, name).item(0);
  }

  public static void main(String[] args) throws Exception {
    Init.init();
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document doc = factory.newDocumentBuilder().parse(new File(args[0]));
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    Element signedInfo = first(doc, DS, "SignedInfo");
    NodeList references = signedInfo.getElementsByTagNameNS(DS, "Reference");
    for (int i = 0; i < references.getLength(); i++) {
      String uri = ((Element) references.item(i)).getAttribute("URI");
      if (uri.startsWith("#")) {
        NodeList all = doc.getElementsByTagNameNS("*", "*");
        for (int k = 0; k < all.getLength(); k++) {
          Element candidate = (Element) all.item(k);
          if (uri.substring(1).equals(candidate.getAttribute("Id"))) input.write(canonical(candidate));
        }
      } else {
        input.write(Files.readAllBytes(new File(args[1], URLDecoder.decode(uri, StandardCharsets.UTF_8)).toPath()));
      }
    }
    input.write(canonical(signedInfo));
    input.write(canonical(first(doc, DS, "SignatureValue")));
    input.write(canonical(first(doc, DS, "KeyInfo")));
    Element unsigned = first(doc, XADES, "UnsignedSignatureProperties");
    byte[] token = null;
    for (Node child = unsigned.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child.getNodeType() != Node.ELEMENT_NODE) continue;
      if (XADES141.equals(child.getNamespaceURI()) && "ArchiveTimeStamp".equals(child.getLocalName())) {
        String encoded = ((Element) child).getElementsByTagNameNS(XADES, "EncapsulatedTimeStamp").item(0).getTextContent();
        token = Base64.getMimeDecoder().decode(encoded);
        break;
      }
      input.write(canonical(child));
    }
    if (token == null) throw new IllegalStateException("no xades141:ArchiveTimeStamp");
    Files.write(new File(args[2]).toPath(), input.toByteArray());
    Files.write(new File(args[3]).toPath(), token);
  }
}
