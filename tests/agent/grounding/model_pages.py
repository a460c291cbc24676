"""Static pages for the model-based grounding tests (HTE with a model chooser, Set-of-Mark)."""

STYLE = """
<style>
  body { width: 900px; margin: 8px; font: 14px sans-serif; }
  nav a { margin-right: 12px; }
  fieldset { margin: 6px 0; }
  label { display: inline-block; width: 110px; }
  .row { margin: 4px 0; }
  table { border-collapse: collapse; margin-top: 10px; }
  td, th { border: 1px solid #999; padding: 2px 8px; }
  aside { background: rgb(255, 224, 160); padding: 4px; }
</style>
"""

# nav (3 links) | main: h1, form (2 fieldsets of labelled fields + a button bar), owners table
# | a help box with exactly one button | a footer with text only.
CLINIC = STYLE + """
<title>Clinic</title>
<nav aria-label="Main">
  <a href="#home">Home</a><a href="#find">Find owners</a><a href="#vets">Veterinarians</a>
</nav>
<main>
  <h1>New Owner</h1>
  <form id="owner-form">
    <fieldset><legend>Name</legend>
      <div class="row"><label for="first">First name</label><input id="first" name="first"></div>
      <div class="row"><label for="last">Last name</label><input id="last" name="last"></div>
    </fieldset>
    <fieldset><legend>Contact</legend>
      <div class="row"><label for="city">City</label><input id="city" name="city"></div>
      <div class="row"><label for="phone">Telephone</label>
        <input id="phone" name="phone" placeholder="digits only"></div>
      <div class="row"><label for="pet">Pet type</label>
        <select id="pet"><option>cat</option><option>dog</option></select></div>
    </fieldset>
    <div class="buttons"><button type="submit">Add Owner</button><button type="reset">Clear form</button></div>
  </form>
  <table id="owners">
    <thead><tr><th>Name</th><th>City</th><th>Actions</th></tr></thead>
    <tbody>
      <tr><td>George Franklin</td><td>Madison</td><td><a href="#e1">Edit</a> <a href="#d1">Delete</a></td></tr>
      <tr><td>Betty Davis</td><td>Sun Prairie</td><td><a href="#e2">Edit</a> <a href="#d2">Delete</a></td></tr>
    </tbody>
  </table>
</main>
<aside id="help"><h2>Need help?</h2><p>Our staff answers within a day.</p><button>Contact support</button></aside>
<footer><p>Copyright Clinic</p></footer>
"""

# Appended to make the page taller than the 800 px viewport (to scroll before grounding).
SPACER = '<div style="height: 500px"></div>'

# A <form> (never collapsed) whose one child is a button bar: a single-child level.
CHAIN = STYLE + """
<form id="save-form">
  <div class="bar"><button type="button">Save draft</button><button type="button">Discard</button></div>
</form>
<div class="other"><button>Archive</button><button>Restore</button></div>
"""
