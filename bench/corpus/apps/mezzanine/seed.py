# Seed data for the corpus, run by start.sh as `manage.py shell -c "exec(open(...).read())"`.
# Uses Mezzanine's own model APIs only (no fixtures).
import io
import os
from datetime import datetime
from datetime import timezone as dt_tz

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from mezzanine.blog.models import BlogCategory, BlogPost
from mezzanine.forms import fields as ftypes
from mezzanine.forms.models import Field, Form
from mezzanine.galleries.models import Gallery, GalleryImage
from mezzanine.generic.models import ThreadedComment
from mezzanine.pages.models import RichTextPage

port = os.environ.get("MZ_PORT", "8000")
site = Site.objects.get(id=settings.SITE_ID)
site.domain = "127.0.0.1:%s" % port
site.name = "Harbor Town Library"
site.save()

User = get_user_model()
admin = User.objects.get(username="admin")
admin.first_name, admin.last_name = "Ada", "Admin"
admin.save()

editor = User.objects.create_user("editor", "editor@example.com", "editor123",
                                  first_name="Emma", last_name="Editor", is_staff=True)
writer = User.objects.create_user("writer", "writer@example.com", "writer123",
                                  first_name="Walter", last_name="Writer", is_staff=True)
User.objects.create_user("reader", "reader@example.com", "reader123",
                         first_name="Rita", last_name="Reader")


def rich(title, content, parent=None, **kw):
    return RichTextPage.objects.create(title=title, content=content, parent=parent, **kw)


# Page tree (order of creation = order in the tree)
about = rich("About Us",
             "<p>Harbor Town Library has served the harbor district since <strong>1921</strong>.</p>")
history = rich("Our History",
               "<p>The library opened in a former customs house on the quay.</p>", parent=about)
rich("The Founders",
     "<p>Three sea captains donated their book collections to found the library.</p>", parent=history)
rich("Our Team",
     "<p>Our librarians are happy to help you find anything.</p>", parent=about)
services = rich("Services",
                "<p>Borrowing, study rooms, and free Wi-Fi for every member.</p>")
rich("Study Rooms",
     "<p>Book a quiet study room for up to four hours a day.</p>", parent=services)
rich("Library Cards",
     "<p>A library card is free for everyone living in Harbor Town.</p>", parent=services)
rich("Opening Hours",
     "<p>Monday to Friday 9:00 to 19:00, Saturday 10:00 to 16:00. Closed on Sundays.</p>")

# Blog root page (as Mezzanine's createdb does)
rich("Blog", "<p>Blog</p>", slug="blog", description="Blog")

# Form page
contact = Form.objects.create(
    title="Contact Us",
    content="<p>Questions about your membership? Send us a message.</p>",
    button_text="Send message",
    response="<p>Thank you! We will get back to you soon.</p>",
)
Field.objects.create(form=contact, label="Your name", field_type=ftypes.TEXT, required=True)
Field.objects.create(form=contact, label="Email", field_type=ftypes.EMAIL, required=True)
Field.objects.create(form=contact, label="Topic", field_type=ftypes.SELECT, required=True,
                     choices="Membership, Events, Other")
Field.objects.create(form=contact, label="Message", field_type=ftypes.TEXTAREA, required=True)

# Gallery with a few generated images
gallery = Gallery.objects.create(title="Photo Gallery",
                                 content="<p>Pictures from around the library.</p>")
try:
    from PIL import Image

    for name, color in (("reading-room", (70, 110, 160)), ("harbor-view", (40, 150, 140)),
                        ("book-fair", (190, 120, 50))):
        buf = io.BytesIO()
        Image.new("RGB", (480, 320), color).save(buf, "JPEG")
        rel = "galleries/photo-gallery/%s.jpg" % name
        path = os.path.join(settings.MEDIA_ROOT, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(buf.getvalue())
        GalleryImage.objects.create(gallery=gallery, file=rel,
                                    description=name.replace("-", " ").capitalize())
except Exception as exc:  # a gallery without pictures still works
    print("gallery images skipped:", exc)

# Blog
cats = {t: BlogCategory.objects.create(title=t) for t in ("News", "Events", "Book Reviews", "Tips")}


def post(title, content, user, categories, when, **kw):
    p = BlogPost.objects.create(title=title, content=content, user=user,
                                publish_date=datetime(*when, tzinfo=dt_tz.utc), **kw)
    p.categories.set([cats[c] for c in categories])
    return p


p1 = post("Summer Reading Challenge", "<p>Read ten books this summer and win a library tote bag.</p>",
          admin, ["News", "Events"], (2024, 6, 1, 10, 0))
p2 = post("New Opening Hours", "<p>From July we open one hour earlier on weekdays.</p>",
          editor, ["News"], (2024, 6, 15, 9, 30))
p3 = post("Review: The Lighthouse Keeper", "<p>A quiet novel about a keeper and his logbook.</p>",
          writer, ["Book Reviews"], (2024, 5, 20, 14, 0))
p4 = post("Five Tips for Finding Books Faster", "<p>Use the catalogue search and ask a librarian.</p>",
          editor, ["Tips"], (2024, 4, 2, 11, 15))
post("Author Talk: Maritime Mysteries", "<p>Join us for an evening with a local crime writer.</p>",
     writer, ["Events"], (2024, 7, 3, 18, 0))
post("Draft: Autumn Book Sale", "<p>Details to follow.</p>", admin, ["Events"],
     (2024, 7, 10, 12, 0), status=1)


def comment(obj, name, email, text, when):
    c = ThreadedComment(content_object=obj, site=site, user_name=name, user_email=email,
                        comment=text, is_public=True, is_removed=False,
                        submit_date=datetime(*when, tzinfo=dt_tz.utc))
    c.save()
    return c


comment(p1, "Tom Baker", "tom@example.com", "My kids loved last year's challenge!", (2024, 6, 2, 8, 0))
comment(p1, "Nina Park", "nina@example.com", "Can adults join too?", (2024, 6, 3, 12, 30))
comment(p3, "Oscar Lund", "oscar@example.com", "Just borrowed it, great recommendation.", (2024, 5, 22, 16, 45))
comment(p2, "Tom Baker", "tom@example.com", "Finally, thank you!", (2024, 6, 16, 7, 10))
print("seeded: %d pages, %d posts, %d comments" % (
    RichTextPage.objects.count(), BlogPost.objects.count(), ThreadedComment.objects.count()))

# Site title and tagline through Mezzanine's editable settings (admin "Settings" page)
from mezzanine.conf.models import Setting

Setting.objects.create(name="SITE_TITLE", value="Harbor Town Library", site=site)
Setting.objects.create(name="SITE_TAGLINE", value="Books, rooms and stories by the sea", site=site)
